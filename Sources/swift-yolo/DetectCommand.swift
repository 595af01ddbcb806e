import ArgumentParser
import Foundation
import SwiftYOLO
import YOLODetect
import YOLOImage

struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Detect objects in images: a table, JSON Lines, or annotated pictures.",
        discussion: """
            Each IMAGE is a PNG or JPEG file; each DIR contributes its .png/.jpg/.jpeg files in name order. \
            The model is loaded once for all of them. Options follow Ultralytics' predict arguments and \
            default to its values, so the detections match `YOLO(model).predict(...)`.

            An image that fails (missing, corrupt, truncated, unsupported, too large) is reported and the \
            others still run; the exit status is 1 at the end if any failed.

            --json prints one object per image per line:
              {"image": PATH, "width": W, "height": H, "detections": [{"class": ID, "label": NAME, \
            "confidence": C, "box": [X1, Y1, X2, Y2]}], "timing_ms": {...}}
            with boxes in original-image pixels, or {"image": PATH, "error": MESSAGE}.

            Examples:
              swift-yolo detect ../shared/images/bus.jpg
              swift-yolo detect --json --conf 0.5 --classes person,bus photos/
              swift-yolo detect --agnostic --save out/ tiles.jpg
            """)

    @Argument(help: ArgumentHelp("Image files (PNG, JPEG) and directories of them.", valueName: "image|dir"))
    var inputs: [String]

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
    }

    func run() throws {
        let detector = try makeDetector()
        let images = try collectImages()
        if let save { try createDirectory(save) }
        let showsProgress = !json && images.count > 1 && isatty(STDERR_FILENO) != 0
        var failures = 0
        var savedNames = Set<String>()
        for (number, image) in images.enumerated() {
            if showsProgress { FileHandle.standardError.write(Data("\r[\(number + 1)/\(images.count)] \(image)\u{1B}[K".utf8)) }
            do {
                let result = try detector.run(imageAt: image)
                if let save {
                    let path = try saveAnnotated(image, result: result, detector: detector, directory: save, taken: &savedNames)
                    if !json { print("saved \(path)") }
                }
                print(json ? DetectionReport.jsonLine(image: image, result: result) : DetectionReport.table(image: image, result: result))
            } catch {
                failures += 1
                if json {
                    print(DetectionReport.jsonErrorLine(image: image, error: error))
                } else {
                    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                }
            }
        }
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if failures > 0 {
            if !json { FileHandle.standardError.write(Data("\(failures) of \(images.count) image(s) failed\n".utf8)) }
            throw ExitCode(1)
        }
    }

    private func makeDetector() throws -> Detector {
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

    /// The image files named on the command line, directories expanded to their images in name order.
    private func collectImages() throws -> [String] {
        var images: [String] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue else {
                images.append(input)  // a missing file is reported with the other failures
                continue
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: input)) ?? []
            let found = entries.filter { ["png", "jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
            if found.isEmpty { FileHandle.standardError.write(Data("warning: no .png/.jpg/.jpeg files in \(input)\n".utf8)) }
            images += found.map { (input as NSString).appendingPathComponent($0) }
        }
        return images
    }

    private func createDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(message: "cannot create --save directory '\(path)': \(error.localizedDescription)")
        }
    }

    /// Draws the detections on the image and writes `<dir>/<name>.png` (suffixed if two inputs share a name).
    private func saveAnnotated(_ image: String, result: DetectionResult, detector: Detector, directory: String,
                               taken: inout Set<String>) throws -> String {
        let decoded = try detector.decoder.decode(contentsOf: image)
        let boxes = result.detections.map {
            BoxAnnotation(x1: $0.box.x1, y1: $0.box.y1, x2: $0.box.x2, y2: $0.box.y2, classId: $0.classId, name: $0.label, confidence: $0.confidence)
        }
        let stem = ((image as NSString).lastPathComponent as NSString).deletingPathExtension
        var name = stem + ".png"
        var suffix = 2
        while taken.contains(name) { name = "\(stem)_\(suffix).png"; suffix += 1 }
        taken.insert(name)
        let path = (directory as NSString).appendingPathComponent(name)
        try Annotator.annotate(decoded, boxes: boxes).writePNG(to: path)
        return path
    }
}
