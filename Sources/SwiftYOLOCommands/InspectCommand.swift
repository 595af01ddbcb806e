import ArgumentParser
import YOLOFileSystem
import YOLOKernels
import YOLOKernelSets
import YOLOModel

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Describe a weights file: its source, classes, and the network layer by layer.",
        discussion: """
            Prints the file's metadata, then one row per top-level layer (as Ultralytics' model summary \
            does) with its inputs, repeats, parameters, module, resolved arguments and output shape for \
            an --imgsz × --imgsz input, then the totals: parameters as stored in the checkpoint and once \
            BatchNorm is folded into the convolutions.

            Example:
              swift-yolo inspect Weights/yolo11n.swyolo
            """)

    @Argument(help: ArgumentHelp("Weights file to describe (default: as for --model in other commands).", valueName: "model"))
    var path: String?

    @OptionGroup var size: ImageSizeOptions

    func run() throws {
        let path = ModelOptions.resolve(self.path)
        let model = try loadModel(path)
        try size.checkMemoryPlan(model)  // an input size `detect` and `bench` would refuse, before any line
        let metadata = model.metadata
        let description = model.description
        try StandardStreams.line(DisplayText.terminal(path))
        let converter = [metadata["converter"]?["name"]?.stringValue, metadata["converter"]?["version"]?.stringValue].compactMap { $0 }.joined(separator: " ")
        if let source = metadata["source"] {
            var line = "  converted by \(converter.isEmpty ? "unknown" : converter) from \(source["file"]?.stringValue ?? "?")"
            if let version = source["ultralytics_version"]?.stringValue { line += " (Ultralytics \(version))" }
            // The metadata is the file's text: shown escaped, as the path is.
            try StandardStreams.line(DisplayText.terminal(line))
            if let sha = source["sha256"]?.stringValue { try StandardStreams.line(DisplayText.terminal("  source sha256 \(sha)")) }
        }
        try StandardStreams.line(DisplayText.terminal("  task \(description.task.rawValue)\(description.keypointShape.map { " (\($0.count) keypoints × \($0.dimensions))" } ?? ""), scale \(description.scale), \(description.classCount) classes, strides \(description.strides.map(String.init).joined(separator: " ")), BatchNorm eps \(metadata["batchnorm_eps"]?.doubleValue ?? 0)"))
        let kernels = KernelSet.active
        try StandardStreams.line("  kernels \(kernels.name) (\(kernels.instructions)) on \(KernelSets.cpuName); "
                                 + "this CPU runs \(KernelSets.supported.map(\.name).joined(separator: ", "))")
        let names = description.classNames
        try StandardStreams.line(DisplayText.terminal("  classes: " + names.prefix(8).enumerated().map { "\($0) \($1)" }.joined(separator: ", ")
                                                      + (names.count > 8 ? ", … \(names.count - 1) \(names[names.count - 1])" : "")))
        try StandardStreams.line("")

        let side = size.side(for: model)
        let shapes = model.outputShapes(height: side, width: side)
        var table = TextTable([("", .right), ("from", .right), ("n", .right), ("params", .right), ("module", .left),
                               ("arguments", .left), ("output (\(side)×\(side))", .left)])
        for layer in model.layers {
            table.append([String(layer.index), layer.fromDescription, String(layer.repeats), layer.storedParameterCount.grouped,
                          layer.module, layer.argumentsDescription,
                          "[" + shapes[layer.index].map(String.init).joined(separator: ", ") + "]"])
        }
        try StandardStreams.line(table.render())
        try StandardStreams.line("")
        try StandardStreams.line("\(model.layers.count) layers, \(model.storedParameterCount.grouped) parameters as stored, \(model.foldedParameterCount.grouped) with BatchNorm folded")
    }
}

/// Loads a model, turning a failure into a one-line message that names the file (then `note`).
func loadModel(_ path: String, note: String = "") throws -> DetectionModel {
    try activateKernels()
    do {
        return try DetectionModel(path: path)
    } catch {
        throw CommandFailure.badModelOrData(error, note: note)
    }
}
