import ArgumentParser

@main
struct SwiftYOLOCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift-yolo",
        abstract: "Run Ultralytics YOLO11 detection models in pure Swift, with no ML runtime.",
        discussion: """
            Models are SwiftYOLO weight files converted from Ultralytics checkpoints:
              python3 tools/convert.py yolo11n.pt Weights/yolo11n.swyolo
              (or `make weights` for the reference checkpoint)

            The default model is $SWIFT_YOLO_MODEL, else Weights/yolo11n.swyolo.
            """,
        subcommands: [DetectCommand.self, VideoCommand.self, InspectCommand.self, VerifyCommand.self, BenchCommand.self])
}
