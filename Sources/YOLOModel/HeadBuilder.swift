/// How the model builder makes a head from its yaml row: one entry per head module, each saying
/// which task it serves (the model file's `task` must match) and how it reads its arguments as
/// Ultralytics' `parse_model` resolves them.
struct HeadBuilder: Sendable {
    /// What a head builder is given.
    struct Context {
        let module: String
        let task: ModelTask
        let classCount: Int
        let strides: [Int]
        let keypointShape: (count: Int, dimensions: Int)?
        /// The row's arguments with `nc`, `kpt_shape` and Python literals resolved.
        let arguments: [JSONValue]
        let inputChannels: [Int]
        let scope: WeightScope
        /// Ultralytics' width scaling of a channel count (`make_divisible(min(c, max_channels) · width, 8)`).
        let protoChannels: (Int) -> Int
        let file: String
        let layer: Int

        func invalid(_ reason: String) -> ModelError { .invalidLayer(file: file, layer: layer, reason: reason) }

        func int(_ position: Int, default value: Int) throws -> Int {
            guard position < arguments.count, arguments[position] != .null else { return value }
            guard let int = arguments[position].intValue else {
                throw invalid("argument \(position) of \(module) is \(arguments[position]), expected an integer")
            }
            return int
        }
    }

    let task: ModelTask
    let makeHead: @Sendable (Context) throws -> (head: any DetectionHead, arguments: [JSONValue])

    /// Head module name → builder.
    static let table: [String: HeadBuilder] = [
        "Detect": HeadBuilder(task: .detect) { context in
            let detect = try Detect(context.scope, classCount: context.classCount, inputChannels: context.inputChannels, strides: context.strides)
            // Resolved as parse_model does: [nc, reg_max, end2end, channels].
            return (detect, context.arguments + [.int(detect.bins), .null, channelList(context)])
        },
        "Segment": HeadBuilder(task: .segment) { context in
            let maskCount = try context.int(1, default: 32), protoArgument = try context.int(2, default: 256)
            guard (1...1024).contains(maskCount), (1...4096).contains(protoArgument) else {
                throw context.invalid("Segment with \(maskCount) masks (1…1024) and \(protoArgument) prototype channels (1…4096)")
            }
            let protoChannels = context.protoChannels(protoArgument)
            let segment = try Segment(context.scope, classCount: context.classCount, maskCount: maskCount, protoChannels: protoChannels,
                                      inputChannels: context.inputChannels, strides: context.strides)
            // [nc, nm, npr (width-scaled), reg_max, end2end, channels].
            return (segment, [context.arguments.first ?? .int(context.classCount), .int(maskCount), .int(protoChannels),
                              .int(segment.detect.bins), .null, channelList(context)])
        },
        "Pose": HeadBuilder(task: .pose) { context in
            guard let shape = context.keypointShape else { throw context.invalid("Pose needs the yaml's kpt_shape") }
            if context.arguments.count > 1, context.arguments[1] != .array([.int(shape.count), .int(shape.dimensions)]) {
                throw context.invalid("Pose's kpt_shape argument \(context.arguments[1]) differs from the yaml's [\(shape.count), \(shape.dimensions)]")
            }
            let pose = try Pose(context.scope, classCount: context.classCount, keypointCount: shape.count, keypointDimensions: shape.dimensions,
                                inputChannels: context.inputChannels, strides: context.strides)
            // [nc, kpt_shape, reg_max, end2end, channels].
            return (pose, [context.arguments.first ?? .int(context.classCount), .array([.int(shape.count), .int(shape.dimensions)]),
                           .int(pose.detect.bins), .null, channelList(context)])
        },
    ]

    private static func channelList(_ context: Context) -> JSONValue { .array(context.inputChannels.map { .int($0) }) }

    /// Checks what every head shares (its task, class count and levels), then builds it.
    func build(_ context: Context) throws -> (head: any DetectionHead, arguments: [JSONValue]) {
        guard task == context.task else {
            throw context.invalid("a \(context.module) head in a model whose task is '\(context.task.rawValue)' (it serves '\(task.rawValue)')")
        }
        let classCount = try context.int(0, default: context.classCount)
        guard classCount == context.classCount else {
            throw context.invalid("\(context.module) has \(classCount) classes, the file's 'nc' is \(context.classCount)")
        }
        guard context.inputChannels.count == context.strides.count else {
            throw context.invalid("\(context.module) takes \(context.inputChannels.count) levels, the file lists \(context.strides.count) strides")
        }
        return try makeHead(context)
    }
}
