/// What a weights file says about its model: the Ultralytics yaml (layers, scales), the chosen scale,
/// the classes and the strides. The graph is built from this, never from a hard-coded network.
package struct ModelDescription: Sendable {
    /// One `[from, repeats, module, args]` row of the yaml's `backbone` + `head`.
    package struct LayerRow: Sendable {
        package let from: [Int]
        /// True when `from` was a single index in the yaml (the layer takes one input).
        package let hasSingleInput: Bool
        package let repeats: Int
        package let module: String
        package let arguments: [JSONValue]
    }

    package let rows: [LayerRow]
    package let scale: String
    /// `(depth, width, max_channels)` for `scale`.
    package let depthMultiple: Double
    package let widthMultiple: Double
    package let maxChannels: Int
    package let classCount: Int
    package let classNames: [String]
    package let strides: [Int]
    package let inputChannels: Int
    /// What the model does; it decides the head and the post-processing.
    package let task: ModelTask
    /// A pose model's `kpt_shape`: keypoints per object and values per keypoint (2 or 3).
    package let keypointShape: (count: Int, dimensions: Int)?
    /// The yaml's `reg_max`: DFL bins per box side (16 by default; 1 in YOLO26, no DFL).
    package let regMax: Int
    /// The yaml's `end2end`: the head also carries one-to-one branches (YOLO26).
    package let endToEnd: Bool

    init(metadata: JSONValue, file: String) throws {
        func invalid(_ reason: String) -> ModelError { .invalidDescription(file: file, reason: reason) }
        guard let taskName = metadata["task"]?.stringValue, let task = ModelTask(rawValue: taskName) else {
            throw invalid("task is '\(metadata["task"]?.stringValue ?? "missing")', only \(ModelTask.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")) models are supported")
        }
        self.task = task
        guard let yaml = metadata["yaml"], case .object = yaml else { throw invalid("'yaml' is missing") }
        guard let backbone = yaml["backbone"]?.arrayValue, let head = yaml["head"]?.arrayValue else {
            throw invalid("the yaml has no 'backbone' and 'head' lists")
        }
        rows = try (backbone + head).enumerated().map { index, row in
            guard let fields = row.arrayValue, fields.count == 4,
                  let repeats = fields[1].intValue, repeats >= 1,
                  let module = fields[2].stringValue, let arguments = fields[3].arrayValue
            else { throw invalid("layer \(index) is not a [from, repeats, module, args] row: \(row)") }
            if let from = fields[0].intValue {
                return LayerRow(from: [from], hasSingleInput: true, repeats: repeats, module: module, arguments: arguments)
            }
            guard let list = fields[0].arrayValue, !list.isEmpty else { throw invalid("layer \(index): bad 'from' \(fields[0])") }
            let from = try list.map { value -> Int in
                guard let index = value.intValue else { throw invalid("layer \(index): bad 'from' \(fields[0])") }
                return index
            }
            return LayerRow(from: from, hasSingleInput: false, repeats: repeats, module: module, arguments: arguments)
        }

        guard let scale = metadata["scale"]?.stringValue ?? yaml["scale"]?.stringValue else { throw invalid("'scale' is missing") }
        self.scale = scale
        if let scales = yaml["scales"], case .object = scales {
            guard let factors = scales[scale]?.arrayValue, factors.count == 3,
                  let depth = factors[0].doubleValue, let width = factors[1].doubleValue, let maxChannels = factors[2].intValue
            else { throw invalid("scale '\(scale)' has no [depth, width, max_channels] entry in the yaml's scales") }
            (depthMultiple, widthMultiple, self.maxChannels) = (depth, width, maxChannels)
            guard depth.isFinite, depth > 0, depth <= 16, width.isFinite, width > 0, width <= 16, maxChannels > 0 else {
                throw invalid("scale '\(scale)' has [depth \(depth), width \(width), max_channels \(maxChannels)], outside (0, 16], (0, 16], > 0")
            }
        } else {
            depthMultiple = yaml["depth_multiple"]?.doubleValue ?? 1
            widthMultiple = yaml["width_multiple"]?.doubleValue ?? 1
            maxChannels = Int.max
            guard depthMultiple.isFinite, depthMultiple > 0, depthMultiple <= 16, widthMultiple.isFinite, widthMultiple > 0, widthMultiple <= 16 else {
                throw invalid("depth_multiple \(depthMultiple) or width_multiple \(widthMultiple) is outside (0, 16]")
            }
        }

        guard let nc = metadata["nc"] else { throw invalid("'nc' is missing") }
        guard let classCount = nc.intValue, classCount >= 1 else { throw invalid("'nc' is \(String(describing: nc).prefix(80)), not a class count of 1 or more") }
        self.classCount = classCount
        guard let names = metadata["names"]?.arrayValue?.compactMap(\.stringValue), names.count == classCount else {
            throw invalid("'names' must list \(classCount) class names")
        }
        classNames = names
        guard let stride = metadata["stride"] else { throw invalid("'stride' is missing") }
        guard let items = stride.arrayValue, !items.isEmpty, case let strides = items.compactMap(\.intValue),
              strides.count == items.count, strides.allSatisfy({ $0 > 0 }) else {
            throw invalid("'stride' is \(String(describing: stride).prefix(80)), not a list of positive integers")
        }
        guard classCount <= 100_000, rows.count <= 1000, rows.allSatisfy({ $0.repeats <= 100 }) else {
            throw invalid("the model claims more than 100,000 classes, 1,000 layers or 100 repeats of a layer")
        }
        self.strides = strides
        inputChannels = yaml["channels"]?.intValue ?? yaml["ch"]?.intValue ?? 3
        if let shape = yaml["kpt_shape"], shape != .null {
            guard let values = shape.arrayValue?.compactMap(\.intValue), values.count == 2,
                  (1...1000).contains(values[0]), [2, 3].contains(values[1])
            else { throw invalid("kpt_shape \(shape) is not [keypoints 1…1000, 2 or 3]") }
            keypointShape = (values[0], values[1])
        } else {
            keypointShape = nil
        }
        guard task != .pose || keypointShape != nil else { throw invalid("a pose model's yaml has no kpt_shape") }
        let regMax = yaml["reg_max"] ?? .null
        guard regMax == .null || (regMax.intValue.map { (1...64).contains($0) } ?? false) else {
            throw invalid("reg_max \(regMax) is not an integer in 1…64")
        }
        self.regMax = regMax.intValue ?? 16
        let endToEnd = yaml["end2end"] ?? .null
        guard endToEnd == .null || endToEnd.boolValue != nil else { throw invalid("end2end \(endToEnd) is not True or False") }
        self.endToEnd = endToEnd.boolValue ?? false
    }
}

/// The task of a model file (its metadata's `task`), as Ultralytics names it.
package enum ModelTask: String, Sendable, CaseIterable {
    case detect
    case segment
    case pose
}
