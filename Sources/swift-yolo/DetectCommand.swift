import ArgumentParser
import Foundation
import SwiftYOLO
import SwiftYOLOVideo
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
            with boxes in original-image pixels, or {"image": PATH, "error": MESSAGE}. With --rotations each \
            detection also says which pass found it ("rotation": 90). --format array prints one flat JSON \
            array per image instead: [class, score, xmin, xmax, ymin, ymax] per detection, concatenated.

            Examples:
              swift-yolo detect ../shared/images/bus.jpg
              swift-yolo detect --json --conf 0.5 --classes person,bus photos/
              swift-yolo detect --agnostic --save out/ tiles.jpg
              swift-yolo detect --rotations 0,90 --json mahjong-table.jpg
              swift-yolo detect --format array dice.png
            """)

    @Argument(help: ArgumentHelp("Image files (PNG, JPEG) and directories of them.", valueName: "image|dir"))
    var inputs: [String]

    @OptionGroup var options: DetectionArguments

    @Option(help: ArgumentHelp(
        "Output: table (for people), json (one object per image per line, as --json), array (one flat JSON array per image per line: [class, score, xmin, xmax, ymin, ymax] per detection).",
        valueName: "format"))
    var format: String?

    func validate() throws {
        if let format {
            guard ["table", "json", "array"].contains(format) else { throw ValidationError("--format must be table, json or array, got '\(format)'") }
            guard !(options.json && format != "json") else { throw ValidationError("--json and --format \(format) contradict each other") }
        }
    }

    /// table, json or array.
    private var outputFormat: String { format ?? (options.json ? "json" : "table") }

    func run() throws {
        let detector = try options.makeDetector()
        let images = try collectImages()
        try options.createSaveDirectory()
        let format = outputFormat, json = format != "table"
        let showsProgress = !json && images.count > 1 && isatty(STDERR_FILENO) != 0
        var failures = 0
        var savedNames = Set<String>()
        for (number, image) in images.enumerated() {
            if showsProgress { FileHandle.standardError.write(Data("\r[\(number + 1)/\(images.count)] \(image)\u{1B}[K".utf8)) }
            do {
                let (result, rotations) = try detect(image, with: detector)
                if let save = options.save {
                    let path = try saveAnnotated(image, result: result, detector: detector, directory: save, taken: &savedNames)
                    if !json { print("saved \(path)") }
                }
                switch format {
                case "json": print(DetectionReport.jsonLine(image: image, result: result, rotations: rotations))
                case "array": print(DetectionReport.arrayLine(result.detections))
                default: print(DetectionReport.table(image: image, result: result, rotations: rotations))
                }
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

    /// The detections in one image: one pass, or merged rotation passes with the pass of each.
    private func detect(_ image: String, with detector: Detector) throws -> (DetectionResult, [Rotation]?) {
        guard let rotations = options.rotationPasses else { return (try detector.run(imageAt: image), nil) }
        let merged = try detector.run(imageAt: image, rotations: rotations)
        let input = merged.passes.first?.result
        let result = DetectionResult(detections: merged.detections.map(\.detection), imageWidth: merged.imageWidth,
                                     imageHeight: merged.imageHeight, inputWidth: input?.inputWidth ?? 0,
                                     inputHeight: input?.inputHeight ?? 0, timings: merged.timings)
        return (result, merged.detections.map(\.rotation))
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
