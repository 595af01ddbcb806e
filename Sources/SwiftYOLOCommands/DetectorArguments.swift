import ArgumentParser
import FoundationEssentials
import Glibc
import SwiftYOLO
import SwiftYOLOVideo
import YOLODetect
import YOLOFileSystem
import YOLOImage

/// The options that make the detector, shared by every command that runs one (`detect`, `video`,
/// `background`, `serve`): the model, Ultralytics' predict arguments, class names, input limits.
struct DetectorArguments: ParsableArguments {
    @OptionGroup var modelOptions: ModelOptions

    @OptionGroup var size: ImageSizeOptions

    // Numbers are parsed unconditionally, so that `--conf -1` is refused for its value, not taken
    // for an option.
    @Option(parsing: .unconditional, help: "Minimum confidence of a detection, in [0, 1].")
    var conf: Double = 0.25

    @Option(parsing: .unconditional, help: "IoU threshold of non-maximum suppression, in [0, 1]: a box overlapping a stronger one by more is dropped.")
    var iou: Double = 0.7

    @Option(name: .customLong("max-det"), parsing: .unconditional, help: "At most this many detections per image.")
    var maxDet: Int = 300

    @Flag(help: "Class-agnostic NMS: one box per place, whatever its class (several objects of one class at different places all stay).")
    var agnostic = false

    @Flag(name: .customLong("end2end"), help: "Models with an end-to-end head (YOLO26): run it and take the top detections without NMS, as Ultralytics' nms=False does (--iou is then unused).")
    var endToEnd = false

    @Option(help: ArgumentHelp("Keep only these classes: ids or names, comma-separated (e.g. person,bus or 0,5).", valueName: "list"))
    var classes: String?

    @Option(help: ArgumentHelp("A file of display names, one per line (UTF-8), replacing the model's class names.", valueName: "file"))
    var labels: String?

    @Option(help: ArgumentHelp(
        "How the image is fitted: letterbox (keep aspect, pad to a multiple of 32 — Ultralytics' default), square (letterbox onto the full imgsz×imgsz square), stretch (scale to imgsz×imgsz, as CoreML's scaleFill), crop (scale the short side, crop the centre).",
        valueName: "mode"))
    var resize: ResizeMode = .letterbox

    @Flag(help: "Short for --resize square.")
    var square = false

    @Option(name: .customLong("max-pixels"), parsing: .unconditional, help: "Refuse images whose header claims more pixels than this.")
    var maxPixels: Int = ImageDecoder.defaultMaxPixels

    func validate() throws {
        guard conf >= 0, conf <= 1 else { throw ValidationError("--conf must lie in [0, 1], got \(conf)") }
        guard iou >= 0, iou <= 1 else { throw ValidationError("--iou must lie in [0, 1], got \(iou)") }
        guard maxDet >= 1 else { throw ValidationError("--max-det must be at least 1, got \(maxDet)") }
        guard maxPixels >= 1 else { throw ValidationError("--max-pixels must be positive, got \(maxPixels)") }
        guard !(square && resize != .letterbox && resize != .square) else {
            throw ValidationError("--square and --resize \(resize.rawValue) contradict each other")
        }
    }

    /// The detector the options describe, class names resolved against the model's (or `--labels`),
    /// its forward passes on `threads` threads (`ThreadsOption.use`). A model or labels file that
    /// cannot be used is exit 65; a class the model lacks, or an input size whose memory plan (for
    /// `passes` at once) is over `--max-memory` or cannot be reserved under `ulimit -v`, is a usage
    /// error (64). Each pass may then take `--max-memory` over `passes`: `serve`'s workers, each
    /// asked for a larger `imgsz` by a request, stay within the limit together.
    ///
    /// The threads start after the model is loaded and before its memory plan is checked: under
    /// `ulimit -v` their stacks take address space, and what the system refuses then is a warning
    /// (fewer threads) or the plan's error, where the load's own allocations would have stopped
    /// the process.
    func makeDetector(passes: Int = 1, threads: Int) throws -> Detector {
        var options = DetectionOptions()
        options.imageSize = size.imgsz
        options.resize = square ? .square : resize
        options.confidenceThreshold = conf
        options.iouThreshold = iou
        options.maxDetections = maxDet
        options.agnostic = agnostic
        options.endToEnd = endToEnd
        options.memoryLimit = size.maxMemory.bytes / max(passes, 1)
        let plain: Detector, labelMap: LabelMap?
        try activateKernels()
        do {
            plain = try Detector(modelPath: modelOptions.resolvedPath, decoder: ImageDecoder(maxPixels: maxPixels))
            labelMap = try labels.map { try LabelMap(contentsOfFile: $0, classCount: plain.model.classCount) }
        } catch {
            throw CommandFailure.badModelOrData(error, note: modelOptions.missingDefaultNote)
        }
        ThreadsOption.use(threads, flag: "--threads")
        try size.checkMemoryPlan(plain.model, passes: passes)
        if let classes {
            // Names are the model's own; with --labels, its display names work too.
            do {
                options.classes = Set(try plain.labels.classIds(parsing: classes))
            } catch {
                guard let labelMap, let ids = try? labelMap.classIds(parsing: classes) else { throw CommandFailure.usage("--classes: \(error)") }
                options.classes = Set(ids)
            }
        }
        do {
            return try Detector(model: plain.model, labels: labelMap, options: options, decoder: plain.decoder)
        } catch {
            throw CommandFailure.usage("\(error)")
        }
    }

}
