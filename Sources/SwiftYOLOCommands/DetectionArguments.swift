import ArgumentParser
import YOLOFileSystem
import SwiftYOLO
import SwiftYOLOVideo

/// The options of the commands that detect in files (`detect`, `video`, `background`): the
/// detector's, output, and the rotation pass.
struct DetectionArguments: ParsableArguments {
    @OptionGroup var detector: DetectorArguments

    @OptionGroup var threadsOption: ThreadsOption

    @Flag(help: "One JSON object per image per line (detect: short for --format json).")
    var json = false

    @Option(help: ArgumentHelp("Write the pictures into this directory: each image with its boxes drawn (background: the cut-out).", valueName: "dir"))
    var save: String?

    @Option(name: .customLong("save-format"), help: ArgumentHelp("The pictures' format: png (lossless) or jpg (quality 90, smaller and faster).", valueName: "format"))
    var saveFormat: PictureFormat = .png

    @Option(help: ArgumentHelp(
        "Also run the model on the image turned clockwise by these angles (0, 90, 180, 270, comma-separated), map the boxes back and merge the passes with NMS, so objects lying sideways are found; each detection reports its pass (\"rotation\").",
        valueName: "list"))
    var rotations: String?

    func validate() throws {
        if let rotations, Rotation.parseList(rotations) == nil {
            throw ValidationError("--rotations must list angles among 0, 90, 180, 270 (e.g. 0,90), got '\(rotations)'")
        }
    }

    /// The rotation passes asked for, or `nil` without `--rotations`.
    var rotationPasses: [Rotation]? { rotations.flatMap(Rotation.parseList) }

    /// The detector the options describe (`DetectorArguments.makeDetector`), its forward passes on `--threads` threads.
    func makeDetector() throws -> Detector {
        try detector.makeDetector(threads: threadsOption.count)
    }

    /// Creates the `--save` directory (exit 74 if it cannot be made).
    func createSaveDirectory() throws {
        guard let save else { return }
        do {
            try Directory.create(save)
        } catch {
            throw CommandFailure.output("cannot create the --save directory: \(error)")
        }
    }
}
