/// What a layer builder is given: one yaml row with its arguments resolved as `parse_model` resolves
/// them, the channels of its inputs, its repeats after depth scaling and its weights.
struct LayerContext {
    let module: String
    let index: Int
    let arguments: [JSONValue]
    let inputChannels: [Int]
    let repeats: Int
    let scope: WeightScope
    /// True when the row's `from` was a single index.
    let singleInput: Bool
    let description: ModelDescription
    let file: String

    /// The first input's channels.
    var c1: Int { inputChannels[0] }

    func invalid(_ reason: String) -> ModelError { .invalidLayer(file: file, layer: index, reason: reason) }

    func argument(_ position: Int) -> JSONValue? { position < arguments.count ? arguments[position] : nil }

    func int(_ position: Int, default value: Int) throws -> Int {
        guard let argument = argument(position), argument != .null else { return value }
        guard let int = argument.intValue else { throw invalid("argument \(position) of \(module) is \(argument), expected an integer") }
        return int
    }

    func bool(_ position: Int, default value: Bool) throws -> Bool {
        guard let argument = argument(position), argument != .null else { return value }
        guard let bool = argument.boolValue else { throw invalid("argument \(position) of \(module) is \(argument), expected True or False") }
        return bool
    }

    func double(_ position: Int, default value: Double) throws -> Double {
        guard let argument = argument(position), argument != .null else { return value }
        guard let double = argument.doubleValue else { throw invalid("argument \(position) of \(module) is \(argument), expected a number") }
        return double
    }

    func requireSingleInput() throws {
        guard singleInput else { throw invalid("\(module) takes one input, got \(inputChannels.count)") }
    }

    /// Ultralytics' width scaling: `make_divisible(min(c, max_channels) · width, 8)`.
    func scaledChannels(_ channels: Int) -> Int {
        let scaled = Double(min(channels, description.maxChannels)) * description.widthMultiple
        return Int(min((scaled / 8).rounded(.up), Double(ModelBuilder.maximumChannels))) * 8
    }
}

/// A layer as built: what it computes, its output channels, its arguments as Ultralytics' model
/// summary prints them, and its parameters after BatchNorm folding.
struct BuiltLayer {
    let operation: Layer.Operation
    let outputChannels: Int
    let arguments: [JSONValue]
    let parameterCount: Int
}

/// How the model builder makes each module a yaml row names: one entry per Ultralytics module name.
/// A new block or head is a file of its own and one entry here; a head also says which task it
/// serves, and the model file's `task` must match.
enum LayerBuilders {
    typealias Builder = @Sendable (LayerContext) throws -> BuiltLayer

    static let table: [String: Builder] = [
        "Conv": block { context, c2, _ in try convolution(context, c2, depthwise: false) },
        "DWConv": block { context, c2, _ in try convolution(context, c2, depthwise: true) },
        "C3k2": block(takesRepeats: true) { context, c2, resolved in
            let (c1, repeats) = (context.c1, context.repeats)
            // The m/l/x scales always use C3k inner blocks (parse_model sets args[3] = True).
            let largeScale = ["m", "l", "x"].contains(context.description.scale)
            let usesC3k = largeScale ? true : try context.bool(1, default: false)
            if largeScale {
                if resolved.count > 3 { resolved[3] = .bool(true) } else { resolved.append(.bool(true)) }
            }
            let expansion = try context.double(2, default: 0.5)
            let attention = try context.bool(3, default: false)
            let groups = try context.int(4, default: 1), shortcut = try context.bool(5, default: true)
            let hidden = Int(Double(c2) * min(max(expansion, 0), 4))
            guard expansion > 0, expansion <= 4, hidden >= 2, groups >= 1, (hidden / 2) % groups == 0, hidden % groups == 0 else {
                throw context.invalid("C3k2 expansion \(expansion) or groups \(groups) does not fit \(c2) channels")
            }
            return { scope in
                try C3k2(scope, inputChannels: c1, outputChannels: c2, repeats: repeats, usesC3k: usesC3k,
                         expansion: expansion, attention: attention, groups: groups, shortcut: shortcut)
            }
        },
        "C3k": block(takesRepeats: true) { context, c2, _ in
            let (c1, repeats) = (context.c1, context.repeats)
            let shortcut = try context.bool(1, default: true), groups = try context.int(2, default: 1)
            let expansion = try context.double(3, default: 0.5), kernelSize = try context.int(4, default: 3)
            guard (1...ModelBuilder.maximumKernelSize).contains(kernelSize), expansion > 0, expansion <= 4, groups >= 1 else {
                throw context.invalid("C3k kernel \(kernelSize), expansion \(expansion) or groups \(groups) out of range")
            }
            return { scope in
                try C3k(scope, inputChannels: c1, outputChannels: c2, repeats: repeats, shortcut: shortcut,
                        groups: groups, expansion: expansion, kernelSize: kernelSize)
            }
        },
        "SPPF": block { context, c2, _ in
            let c1 = context.c1
            let kernelSize = try context.int(1, default: 5), poolings = try context.int(2, default: 3)
            let shortcut = try context.bool(3, default: false)
            guard (1...ModelBuilder.maximumKernelSize).contains(kernelSize), kernelSize % 2 == 1, (1...8).contains(poolings) else {
                throw context.invalid("SPPF kernel \(kernelSize) (odd, 1…\(ModelBuilder.maximumKernelSize)) or poolings \(poolings) (1…8) out of range")
            }
            return { scope in
                try SPPF(scope, inputChannels: c1, outputChannels: c2, kernelSize: kernelSize, poolings: poolings, shortcut: shortcut)
            }
        },
        "C2PSA": block(takesRepeats: true) { context, c2, _ in
            let (c1, repeats) = (context.c1, context.repeats)
            let expansion = try context.double(1, default: 0.5)
            guard expansion > 0, expansion <= 4, Int(Double(c1) * expansion) >= 1, c1 == c2 else {
                throw context.invalid("C2PSA expansion \(expansion) does not fit \(c1) → \(c2) channels")
            }
            return { scope in try C2PSA(scope, inputChannels: c1, outputChannels: c2, repeats: repeats, expansion: expansion) }
        },
        "nn.Upsample": { context in
            try context.requireSingleInput()
            guard context.argument(0) == nil || context.argument(0) == .null, let factor = context.argument(1)?.intValue,
                  (1...ModelBuilder.maximumUpsampling).contains(factor), context.argument(2)?.stringValue ?? "nearest" == "nearest"
            else {
                throw context.invalid("only nn.Upsample(None, integer factor 1…\(ModelBuilder.maximumUpsampling), 'nearest') is supported, got \(context.arguments)")
            }
            return BuiltLayer(operation: .module(Upsample(factor: factor)), outputChannels: context.c1, arguments: context.arguments, parameterCount: 0)
        },
        "Concat": { context in
            guard try context.int(0, default: 1) == 1 else { throw context.invalid("Concat along a dimension other than 1 (channels)") }
            return BuiltLayer(operation: .concat, outputChannels: context.inputChannels.reduce(0, +), arguments: context.arguments, parameterCount: 0)
        },
        "Detect": head(serving: .detect) { context in
            let description = context.description
            let detect = try Detect(context.scope, classCount: description.classCount, inputChannels: context.inputChannels,
                                    strides: description.strides, bins: description.regMax, endToEnd: description.endToEnd)
            // Resolved as parse_model does: [nc, reg_max, end2end, channels].
            let endToEnd: JSONValue = description.endToEnd ? .bool(true) : .null
            return (detect, context.arguments + [.int(detect.bins), endToEnd, channelList(context)])
        },
        "Segment": head(serving: .segment) { context in
            let maskCount = try context.int(1, default: 32), protoArgument = try context.int(2, default: 256)
            guard (1...1024).contains(maskCount), (1...4096).contains(protoArgument) else {
                throw context.invalid("Segment with \(maskCount) masks (1…1024) and \(protoArgument) prototype channels (1…4096)")
            }
            let protoChannels = context.scaledChannels(protoArgument)
            let segment = try Segment(context.scope, classCount: context.description.classCount, maskCount: maskCount,
                                      protoChannels: protoChannels, inputChannels: context.inputChannels, strides: context.description.strides)
            // [nc, nm, npr (width-scaled), reg_max, end2end, channels].
            return (segment, [context.arguments.first ?? .int(context.description.classCount), .int(maskCount), .int(protoChannels),
                              .int(segment.detect.bins), .null, channelList(context)])
        },
        "Pose": head(serving: .pose) { context in
            guard let shape = context.description.keypointShape else { throw context.invalid("Pose needs the yaml's kpt_shape") }
            let kptShape = JSONValue.array([.int(shape.count), .int(shape.dimensions)])
            if let argument = context.argument(1), argument != kptShape {
                throw context.invalid("Pose's kpt_shape argument \(argument) differs from the yaml's \(kptShape)")
            }
            let pose = try Pose(context.scope, classCount: context.description.classCount, keypointCount: shape.count,
                                keypointDimensions: shape.dimensions, inputChannels: context.inputChannels, strides: context.description.strides)
            // [nc, kpt_shape, reg_max, end2end, channels].
            return (pose, [context.arguments.first ?? .int(context.description.classCount), kptShape, .int(pose.detect.bins), .null,
                           channelList(context)])
        },
    ]

    /// A block whose output channels are `args[0]` scaled by the width (`Conv`, `C3k2`, …): Ultralytics'
    /// resolved arguments `[c1, c2, (n,) rest…]`; repeated in sequence `repeats` times, unless it
    /// `takesRepeats` as its own argument. `make` checks the arguments (and may adjust the resolved
    /// ones) and returns the block's constructor for one weight scope.
    static func block(takesRepeats: Bool = false,
                      _ make: @escaping @Sendable (LayerContext, Int, inout [JSONValue]) throws -> (WeightScope) throws -> any Module) -> Builder {
        { context in
            try context.requireSingleInput()
            let c2 = context.scaledChannels(try context.int(0, default: context.c1))
            guard (1...ModelBuilder.maximumChannels).contains(c2) else {
                throw context.invalid("\(context.module) with \(c2) output channels, outside 1…\(ModelBuilder.maximumChannels)")
            }
            var resolved: [JSONValue] = [.int(context.c1), .int(c2)] + context.arguments.dropFirst()
            if takesRepeats { resolved.insert(.int(context.repeats), at: 2) }
            let makeModule = try make(context, c2, &resolved)
            let count = takesRepeats ? 1 : context.repeats
            let built: any Module = count > 1
                ? Sequential(modules: try (0..<count).map { try makeModule(context.scope.child($0)) })
                : try makeModule(context.scope)
            return BuiltLayer(operation: .module(built), outputChannels: c2, arguments: resolved, parameterCount: built.parameterCount)
        }
    }

    /// `Conv` and `DWConv`: `[c2, k, s, p, g, d, act]`, without explicit padding or dilation.
    static func convolution(_ context: LayerContext, _ c2: Int, depthwise: Bool) throws -> (WeightScope) throws -> any Module {
        let c1 = context.c1, module = context.module
        let kernelSize = try context.int(1, default: 1), stride = try context.int(2, default: 1)
        guard (1...ModelBuilder.maximumKernelSize).contains(kernelSize), (1...ModelBuilder.maximumStride).contains(stride) else {
            throw context.invalid("\(module) kernel \(kernelSize) or stride \(stride) is outside 1…\(ModelBuilder.maximumKernelSize), 1…\(ModelBuilder.maximumStride)")
        }
        guard context.argument(3) == nil || context.argument(3) == .null, try context.int(5, default: 1) == 1 else {
            throw context.invalid("\(module) with explicit padding or dilation is not supported")
        }
        guard try context.bool(6, default: true) else { throw context.invalid("\(module) with act=False in the yaml is not supported") }
        let groups = try context.int(4, default: 1)
        guard groups >= 1, c1 % groups == 0, c2 % groups == 0 else { throw context.invalid("\(groups) groups do not divide \(c1) → \(c2) channels") }
        return { scope in
            depthwise
                ? try DWConv.load(scope, inputChannels: c1, outputChannels: c2, kernelSize: kernelSize, stride: stride)
                : try Conv(scope, inputChannels: c1, outputChannels: c2, kernelSize: kernelSize, stride: stride, groups: groups)
        }
    }

    /// A head (Detect, or one composing it): it must serve the model file's task, have its class
    /// count and take one input per stride; its output rows are `4 + nc` plus its extras.
    static func head(serving task: ModelTask, _ make: @escaping @Sendable (LayerContext) throws -> (any DetectionHead, [JSONValue])) -> Builder {
        { context in
            let description = context.description
            guard task == description.task else {
                throw context.invalid("a \(context.module) head in a model whose task is '\(description.task.rawValue)' (it serves '\(task.rawValue)')")
            }
            let classCount = try context.int(0, default: description.classCount)
            guard classCount == description.classCount else {
                throw context.invalid("\(context.module) has \(classCount) classes, the file's 'nc' is \(description.classCount)")
            }
            guard context.inputChannels.count == description.strides.count else {
                throw context.invalid("\(context.module) takes \(context.inputChannels.count) levels, the file lists \(description.strides.count) strides")
            }
            let (head, arguments) = try make(context)
            return BuiltLayer(operation: .head(head), outputChannels: 4 + classCount + head.extras.rowCount, arguments: arguments,
                              parameterCount: head.parameterCount)
        }
    }

    private static func channelList(_ context: LayerContext) -> JSONValue { .array(context.inputChannels.map { .int($0) }) }
}
