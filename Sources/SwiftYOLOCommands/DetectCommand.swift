import ArgumentParser
import FoundationEssentials
import Glibc
import SwiftYOLO
import SwiftYOLOVideo
import YOLODetect
import YOLOFileSystem
import YOLOImage
import YOLOModel
import YOLOServing

struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Detect objects in images: a table, JSON Lines, or annotated pictures.",
        discussion: """
            Each IMAGE is a PNG or JPEG file; each DIR contributes its .png/.jpg/.jpeg files in name order; \
            - reads image paths from standard input, one per line, as they arrive (a long-lived process \
            for xargs, GNU parallel or Spark's RDD.pipe: one JSON line per image as soon as it is done, \
            in input order, in bounded memory). The model is loaded once for all of them. Options follow Ultralytics' predict arguments and \
            default to its values, so the detections match `YOLO(model).predict(...)`.

            An image that fails (missing, corrupt, truncated, unsupported, too large) is reported and the \
            others still run; the exit status is 1 at the end if any failed.

            --json prints one object per image per line:
              {"image": PATH, "width": W, "height": H, "detections": [{"class": ID, "label": NAME, \
            "confidence": C, "box": [X1, Y1, X2, Y2]}], "timing_ms": {...}}
            with boxes in original-image pixels, or {"image": PATH, "error": MESSAGE}. With --rotations each \
            detection also says which pass found it ("rotation": 90). --format array prints one flat JSON \
            array per image instead: [class, score, xmin, xmax, ymin, ymax] per detection, concatenated.

            A segmentation model adds each object's mask to the JSON ("mask": COCO compressed RLE \
            {"size": [H, W], "counts": STRING} at original-image size, as pycocotools reads it) and --save \
            draws it; a pose model adds "keypoints": [[X, Y, CONFIDENCE], ...] in image pixels and --save \
            draws the skeleton. --masks DIR writes one 8-bit PNG per image whose pixels are the 1-based \
            index of the detection covering them (the most confident on top; past the 255th, 255), 0 for \
            the background.

            --save and --masks never replace a file: a name that exists (an input, an earlier picture) gets \
            _2, _3, … and the name used is reported ("saved" and "masks" in JSON).

            Examples:
              swift-yolo detect ../shared/images/bus.jpg
              swift-yolo detect --json --conf 0.5 --classes person,bus photos/
              swift-yolo detect --agnostic --save out/ tiles.jpg
              swift-yolo detect --model Weights/yolo26n.swyolo --end2end --json bus.jpg
              swift-yolo detect --rotations 0,90 --json mahjong-table.jpg
              swift-yolo detect --format array dice.png
            """)

    @Argument(help: ArgumentHelp("Image files (PNG, JPEG), directories of them, and - to read paths from standard input, one per line.",
                                 valueName: "image|dir|-"))
    var inputs: [String]

    @OptionGroup var options: DetectionArguments

    @Option(help: ArgumentHelp("Segmentation models: write each image's instance masks into this directory, as an 8-bit PNG of detection indices (0: background).", valueName: "dir"))
    var masks: String?

    @Flag(help: "Pose models: add to each person a face box from the head keypoints and whether it looks at the camera (\"face\" in JSON), and print how many faces and frontal faces each image has.")
    var faces = false

    @Option(help: ArgumentHelp(
        "Output: table (for people), json (one object per image per line; --json for short), array (one flat JSON array per image per line: [class, score, xmin, xmax, ymin, ymax] per detection).",
        valueName: "format"))
    var format: OutputFormat?

    func validate() throws {
        if let format, options.json, format != .json {
            throw ValidationError("--json and --format \(format.rawValue) contradict each other")
        }
    }

    private var outputFormat: OutputFormat { format ?? (options.json ? .json : .table) }

    func run() throws {
        Interruption.stopForwardPasses()
        let detector = try options.makeDetector()
        // Options that only a model's task can give meaning to: refused rather than left without effect.
        let task = detector.model.task
        if masks != nil, task != .segment { throw CommandFailure.wrongTask("--masks", needs: "segmentation", model: detector.model) }
        if faces, task != .pose { throw CommandFailure.wrongTask("--faces", needs: "pose", model: detector.model) }
        let images = ImageInputs(arguments: inputs)
        let total = images.knownCount
        try options.createSaveDirectory()
        if let masks {
            do { try Directory.create(masks) } catch { throw CommandFailure.output("cannot create the --masks directory: \(error)") }
        }
        let format = outputFormat, json = format != .table
        let showsProgress = !json && (total ?? 2) > 1 && isatty(STDERR_FILENO) != 0
        var failures = 0
        var done = 0
        /// Failures to write a picture (a full disk, a file-size limit): the status says so (74), not 1.
        var unwritten = 0
        func interrupted(by signal: Int32) -> Interrupted {
            if showsProgress { StandardStreams.clearProgress() }
            return Interrupted.afterImages(signal: signal, done: done, of: total)
        }
        for input in images {
            let image = input.path
            if let signal = Interruption.signal { throw interrupted(by: signal) }
            if showsProgress { StandardStreams.progress("[\(done + 1)\(total.map { "/\($0)" } ?? "")] \(image)") }
            var line: String
            do {
                try input.checkListed()
                var decodeTime = Duration.zero
                let decoded = try measure(&decodeTime) { try detector.decoder.decode(contentsOf: image) }
                var (result, rotations) = try detect(decoded, decodeTime: decodeTime, with: detector)
                if faces { result = result.addingFaces() }
                let (saved, savedMasks) = try CommandFailure.writing {
                    let saved = try options.save.map { try saveAnnotated(decoded, named: image, result: result, directory: $0) }
                    return (saved, try masks.map { try saveInstanceMap(result, named: image, directory: $0) })
                }
                switch format {
                case .json: line = ResultJSON.line(image: image, result: result, rotations: rotations, saved: saved, masks: savedMasks)
                case .array: line = DetectionReport.arrayLine(result.detections)
                case .table: line = DetectionReport.table(image: image, result: result, rotations: rotations, saved: saved)
                }
                if faces {
                    // The count goes with the table on stdout; beside JSON, on stderr.
                    let found = result.detections.compactMap(\.face)
                    let count = "\(found.count) face\(found.count == 1 ? "" : "s"), \(found.filter(\.frontal).count) frontal"
                    if json { StandardStreams.message("\(image): \(count)") } else { line += "\n  \(count)" }
                }
            } catch let stopped as Interruption.StoppedPass {
                throw interrupted(by: stopped.signal)
            } catch {
                failures += 1
                if CommandFailure.isOutputFailure(error) { unwritten += 1 }
                if !json {
                    StandardStreams.message("error: \(error)")
                    done += 1
                    continue
                }
                line = ResultJSON.errorLine(image: image, error: error)
            }
            try StandardStreams.line(line)
            done += 1
        }
        if showsProgress { StandardStreams.clearProgress() }
        if let signal = ImageInputs.interruption(done: done, of: total) {
            // Standard input ended because a signal interrupted its read.
            throw interrupted(by: signal)
        }
        if failures > 0 {
            if !json { StandardStreams.message("\(failures) of \(done) image(s) failed") }
            throw ExitCode(unwritten > 0 ? ExitStatus.outputFailed : ExitStatus.someInputsFailed)
        }
    }

    /// The detections in one image: one pass, or merged rotation passes with the pass of each.
    private func detect(_ image: RGBImage, decodeTime: Duration, with detector: Detector) throws -> (DetectionResult, [Rotation]?) {
        guard let rotations = options.rotationPasses else { return (try detector.run(image, decodeTime: decodeTime), nil) }
        var timings = StageTimings()
        timings.decode = decodeTime
        let merged = try detector.run(image, rotations: rotations, timings: timings)
        let input = merged.passes.first?.result
        let result = DetectionResult(detections: merged.detections.map(\.detection), imageWidth: merged.imageWidth,
                                     imageHeight: merged.imageHeight, inputWidth: input?.inputWidth ?? 0,
                                     inputHeight: input?.inputHeight ?? 0, timings: merged.timings)
        return (result, merged.detections.map(\.rotation))
    }

    /// Writes `<dir>/<name>.png`, the instance map of `result` (never replacing a file, as `--save`),
    /// and returns the path written.
    private func saveInstanceMap(_ result: DetectionResult, named image: String, directory: String) throws -> String {
        let name = image.split(separator: "/").last.map(String.init) ?? image
        let stem = name.lastIndex(of: ".").map { name[..<$0] }.map(String.init) ?? name
        let wanted = Directory.appending(stem.isEmpty ? name : stem, to: directory) + ".png"
        let written = try Picture(width: result.imageWidth, height: result.imageHeight, channels: 1, pixels: result.instanceMap()).writePNG(to: wanted)
        if written != wanted { StandardStreams.message("warning: '\(wanted)' exists; saved the masks as '\(written)'") }
        let highest = Int(UInt8.max)  // `instanceMap()`'s values are bytes
        if result.detections.count > highest {
            StandardStreams.message("warning: '\(written)': \(result.detections.count) detections; an 8-bit PNG numbers \(highest), so those past the \(highest)th read as \(highest)")
        }
        return written
    }

    /// Draws the detections on the decoded image and writes `<dir>/<name>.png` (or `.jpg`), or
    /// `<name>_2.png`, … when that name exists (an input, an earlier run's picture, another input of
    /// the same name): an existing file is never replaced. Returns the path written, and says on
    /// stderr when it is not the first choice.
    private func saveAnnotated(_ decoded: RGBImage, named image: String, result: DetectionResult, directory: String) throws -> String {
        let boxes = result.detections.map {
            BoxAnnotation(x1: $0.box.x1, y1: $0.box.y1, x2: $0.box.x2, y2: $0.box.y2, classId: $0.classId, name: $0.label, confidence: $0.confidence)
        }
        let name = image.split(separator: "/").last.map(String.init) ?? image
        let stem = name.lastIndex(of: ".").map { name[..<$0] }.map(String.init) ?? name
        let wanted = Directory.appending(stem.isEmpty ? name : stem, to: directory) + options.saveFormat.fileExtension
        let written = try TaskDrawing.annotate(decoded, detections: result.detections, boxes: boxes).write(to: wanted, format: options.saveFormat)
        if written != wanted { StandardStreams.message("warning: '\(wanted)' exists; saved as '\(written)'") }
        return written
    }
}
