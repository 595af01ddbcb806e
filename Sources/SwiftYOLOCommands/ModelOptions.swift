import ArgumentParser
import FoundationEssentials
import Glibc
import YOLOModel

/// The `--model` option shared by every subcommand, with its documented default.
struct ModelOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "SwiftYOLO weights file (.swyolo).",
        discussion: "Default: $SWIFT_YOLO_MODEL, else Weights/yolo11n.swyolo (made by `make weights`).",
        valueName: "path"))
    var model: String?

    /// The model path to use: the option, the environment, or the converted default weights.
    var resolvedPath: String { Self.resolve(model) }

    /// What follows the message of a model that cannot be read where that model is the default and
    /// is not there (a first run, before `make weights`): where it comes from and how to name another.
    var missingDefaultNote: String {
        guard model == nil, ProcessInfo.processInfo.environment["SWIFT_YOLO_MODEL"]?.isEmpty ?? true,
              access(resolvedPath, F_OK) != 0 else { return "" }
        return " (the default model, which `make weights` converts in a SwiftYOLO checkout; or give --model PATH or set SWIFT_YOLO_MODEL)"
    }

    /// The model, loaded (exit 65 where it cannot be, with `missingDefaultNote`).
    func load() throws -> DetectionModel {
        try loadModel(resolvedPath, note: missingDefaultNote)
    }

    /// `explicit` if given, else `$SWIFT_YOLO_MODEL`, else the converted default weights.
    static func resolve(_ explicit: String?) -> String {
        if let explicit { return explicit }
        if let fromEnvironment = ProcessInfo.processInfo.environment["SWIFT_YOLO_MODEL"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return "Weights/yolo11n.swyolo"
    }
}
