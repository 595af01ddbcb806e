import ArgumentParser
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

    @Option(help: "Input side for the output shapes (a multiple of 32).")
    var imgsz = 640

    func validate() throws {
        guard imgsz > 0, imgsz % 32 == 0 else { throw ValidationError("--imgsz must be a positive multiple of 32, got \(imgsz)") }
    }

    func run() throws {
        let path = ModelOptions.resolve(self.path)
        let model = try loadModel(path)
        let metadata = model.metadata
        let description = model.description
        print(path)
        let converter = [metadata["converter"]?["name"]?.stringValue, metadata["converter"]?["version"]?.stringValue].compactMap { $0 }.joined(separator: " ")
        if let source = metadata["source"] {
            var line = "  converted by \(converter.isEmpty ? "unknown" : converter) from \(source["file"]?.stringValue ?? "?")"
            if let version = source["ultralytics_version"]?.stringValue { line += " (Ultralytics \(version))" }
            print(line)
            if let sha = source["sha256"]?.stringValue { print("  source sha256 \(sha)") }
        }
        print("  task detect, scale \(description.scale), \(description.classCount) classes, strides \(description.strides.map(String.init).joined(separator: " ")), BatchNorm eps \(metadata["batchnorm_eps"]?.doubleValue ?? 0)")
        let names = description.classNames
        print("  classes: " + names.prefix(8).enumerated().map { "\($0) \($1)" }.joined(separator: ", ") + (names.count > 8 ? ", … \(names.count - 1) \(names[names.count - 1])" : ""))
        print()

        let shapes = model.outputShapes(height: imgsz, width: imgsz)
        var table = TextTable([("", .right), ("from", .right), ("n", .right), ("params", .right), ("module", .left),
                               ("arguments", .left), ("output (\(imgsz)×\(imgsz))", .left)])
        for layer in model.layers {
            table.append([String(layer.index), layer.fromDescription, String(layer.repeats), layer.storedParameterCount.grouped,
                          layer.module, layer.argumentsDescription,
                          "[" + shapes[layer.index].map(String.init).joined(separator: ", ") + "]"])
        }
        print(table.render())
        print()
        print("\(model.layers.count) layers, \(model.storedParameterCount.grouped) parameters as stored, \(model.foldedParameterCount.grouped) with BatchNorm folded")
    }
}

/// Loads a model, turning a failure into a one-line message that names the file.
func loadModel(_ path: String) throws -> DetectionModel {
    do {
        return try DetectionModel(path: path)
    } catch {
        throw CommandFailure(error)
    }
}
