import ArgumentParser
import FoundationEssentials
import Glibc

/// The `--model` option shared by every subcommand, with its documented default.
struct ModelOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "SwiftYOLO weights file (.swyolo).",
        discussion: "Default: $SWIFT_YOLO_MODEL, else Weights/yolo11n.swyolo (made by `make weights`).",
        valueName: "path"))
    var model: String?

    /// The model path to use: the option, the environment, or the converted default weights.
    var resolvedPath: String { Self.resolve(model) }

    /// `explicit` if given, else `$SWIFT_YOLO_MODEL`, else the converted default weights.
    static func resolve(_ explicit: String?) -> String {
        if let explicit { return explicit }
        if let fromEnvironment = ProcessInfo.processInfo.environment["SWIFT_YOLO_MODEL"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return "Weights/yolo11n.swyolo"
    }
}
