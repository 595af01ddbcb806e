import ArgumentParser
import Foundation
import SwiftYOLO
import SwiftYOLOVideo
import YOLODetect
import YOLOImage

/// The options of `detect` that every command running the detector shares (`detect`, `video`):
/// Ultralytics' predict arguments, class names, output and the rotation pass.
struct DetectionArguments: ParsableArguments {
    @OptionGroup var modelOptions: ModelOptions

    @Option(help: "Minimum confidence of a detection.")
    var conf: Float = 0.25

    @Option(help: "IoU threshold of non-maximum suppression: a box overlapping a stronger one by more is dropped.")
    var iou: Double = 0.7

    @Option(help: "Input size: the long side of the image is scaled to this (rounded up to a multiple of 32).")
    var imgsz: Int = 640

    @Option(name: .customLong("max-det"), help: "At most this many detections per image.")
    var maxDet: Int = 300

    @Flag(help: "Class-agnostic NMS: one box per place, whatever its class (several objects of one class at different places all stay).")
    var agnostic = false

    @Option(help: ArgumentHelp("Keep only these classes: ids or names, comma-separated (e.g. person,bus or 0,5).", valueName: "list"))
    var classes: String?

    @Option(help: ArgumentHelp("A file of display names, one per line (UTF-8), replacing the model's class names.", valueName: "file"))
    var labels: String?

    @Option(help: ArgumentHelp(
        "How the image is fitted: letterbox (keep aspect, pad to a multiple of 32 — Ultralytics' default), stretch (scale to imgsz×imgsz, as CoreML's scaleFill), crop (scale the short side, crop the centre).",
        valueName: "mode"))
    var resize: String = "letterbox"

    @Flag(help: "Letterbox onto the full imgsz×imgsz square instead of the minimal rectangle.")
    var square = false

    @Flag(help: "Print one JSON object per image per line instead of a table.")
    var json = false

    @Option(help: ArgumentHelp("Write each image with its boxes drawn, as PNG, into this directory.", valueName: "dir"))
    var save: String?

    @Option(name: .customLong("max-pixels"), help: "Refuse images whose header claims more pixels than this.")
    var maxPixels: Int = ImageDecoder.defaultMaxPixels

    @Option(help: ArgumentHelp(
        "Also run the model on the image turned clockwise by these angles (0, 90, 180, 270, comma-separated), map the boxes back and merge the passes with NMS, so objects lying sideways are found; each detection reports its pass (\"rotation\").",
        valueName: "list"))
    var rotations: String?

    func validate() throws {
        guard conf >= 0, conf <= 1 else { throw ValidationError("--conf must lie in [0, 1], got \(conf)") }
        guard iou >= 0, iou <= 1 else { throw ValidationError("--iou must lie in [0, 1], got \(iou)") }
        guard imgsz >= 32, imgsz <= 8192 else { throw ValidationError("--imgsz must lie in 32…8192, got \(imgsz)") }
        guard maxDet >= 1 else { throw ValidationError("--max-det must be at least 1, got \(maxDet)") }
        guard maxPixels >= 1 else { throw ValidationError("--max-pixels must be positive, got \(maxPixels)") }
        guard ["letterbox", "stretch", "crop"].contains(resize) else {
            throw ValidationError("--resize must be letterbox, stretch or crop, got '\(resize)'")
        }
        guard !(square && resize != "letterbox") else { throw ValidationError("--square applies to --resize letterbox only") }
        if let rotations, Rotation.parseList(rotations) == nil {
            throw ValidationError("--rotations must list angles among 0, 90, 180, 270 (e.g. 0,90), got '\(rotations)'")
        }
    }

    /// The rotation passes asked for, or `nil` without `--rotations`.
    var rotationPasses: [Rotation]? { rotations.flatMap(Rotation.parseList) }

    /// The detector the options describe, class names resolved against the model's (or `--labels`).
    func makeDetector() throws -> Detector {
        var options = DetectionOptions()
        options.imageSize = imgsz
        options.resize = square ? .square : ResizeMode(rawValue: resize) ?? .letterbox
        options.confidenceThreshold = conf
        options.iouThreshold = iou
        options.maxDetections = maxDet
        options.agnostic = agnostic
        do {
            // The class filter may use names, so it is resolved against the model's labels.
            let plain = try Detector(modelPath: modelOptions.resolvedPath, decoder: ImageDecoder(maxPixels: maxPixels))
            let labelMap = try labels.map { try LabelMap(contentsOfFile: $0, classCount: plain.model.classCount) }
            if let classes {
                // Names are the model's own; with --labels, its display names work too.
                do {
                    options.classes = Set(try plain.labels.classIds(parsing: classes))
                } catch {
                    guard let labelMap else { throw error }
                    options.classes = Set(try labelMap.classIds(parsing: classes))
                }
            }
            return try Detector(model: plain.model, labels: labelMap, options: options, decoder: plain.decoder)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Creates the `--save` directory.
    func createSaveDirectory() throws {
        guard let save else { return }
        do {
            try FileManager.default.createDirectory(atPath: save, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(message: "cannot create --save directory '\(save)': \(error.localizedDescription)")
        }
    }
}
