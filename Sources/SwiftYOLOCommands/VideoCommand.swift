import ArgumentParser
import FoundationEssentials
import Glibc
import SwiftYOLO
import SwiftYOLOVideo
import YOLOFileSystem
import YOLOImage
import YOLOPlatform

struct VideoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "video",
        abstract: "Detect objects in a video stream or a directory of frames: JSON Lines, tracks and settle events.",
        discussion: """
            SOURCE is a YUV4MPEG2 stream — a .y4m file, or - for standard input, so any video ffmpeg reads \
            works: ffmpeg -i clip.mp4 -f yuv4mpegpipe - | swift-yolo video - — or a directory whose \
            .png/.jpg/.jpeg files are the frames in name order. 8-bit 4:2:0 and 4:4:4 streams are \
            converted to RGB with BT.601 exactly as ffmpeg does (limited range, or full with XCOLORRANGE=FULL; \
            4:2:0 frames of odd height differ at colour edges, where ffmpeg interpolates the chroma).

            Output is JSON Lines, one object per processed frame (frames count from 0; time_s is frame / fps):
              {"frame": N, "time_s": T, "detections": [{"class": ID, "label": NAME, "confidence": C, \
            "box": [X1, Y1, X2, Y2]}, ...], "timing_ms": {...}}
            with "track": ID in each detection under --smooth, "rotation": DEG under --rotations, "image": FILE \
            for directory frames, "dropped": D (frames dropped just before) under --realtime and "saved": FILE \
            (the picture written) under --save. Events:
              {"event": "settled", "frame": N, "time_s": T, "detections": [...]}   objects left to right
              {"frame": N, "time_s": T, "error": MESSAGE}    a frame that failed; the stream goes on
              {"event": "error", "source": SOURCE, "error": MESSAGE}    a stream that cannot go on (exit status 1; 74 if a frame could not be saved)
              {"event": "end", "source": SOURCE, "frames": R, "processed": P, "skipped": S, "dropped": D, "failed": F, "seconds": W, "fps": P/W}
            --format array replaces "detections" by "array": [class, score, xmin, xmax, ymin, ymax, ...].

            detect's model and detection options apply, but not --format table, --masks or --faces \
            (--save writes frame_NNNNNN.png per processed frame; --json is accepted, the output being \
            JSON anyway).

            Examples:
              ffmpeg -i match.mp4 -f yuv4mpegpipe - | swift-yolo video --every 3 --smooth -
              swift-yolo video --settle 5 --classes 'sports ball' dice.y4m
              ffmpeg -f v4l2 -i /dev/video0 -f yuv4mpegpipe - | swift-yolo video --realtime -
            """)

    @Argument(help: ArgumentHelp("A .y4m file, - for a YUV4MPEG2 stream on standard input, or a directory of image frames.", valueName: "source"))
    var source: String

    @OptionGroup var options: DetectionArguments

    @Option(help: ArgumentHelp("Process every Nth frame (frames 0, N, 2N, …).", valueName: "n"))
    var every: Int = 1

    @Flag(help: "Play the source at its frame rate and drop frames that arrive while the previous one is still being processed (counted in \"dropped\").")
    var realtime = false

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Frames per second for pacing and times, overriding the stream's own (a directory has none: default 30); above 0, at most 1000.",
        valueName: "rate"))
    var fps: Double?

    @Flag(help: "Track objects across frames: each detection gets a \"track\" id, boxes are smoothed, and an object is reported once seen in --min-hits of the last --window frames.")
    var smooth = false

    @Option(help: ArgumentHelp("With --smooth: weight of the newest box in the moving average (1 = no smoothing).", valueName: "weight"))
    var ema: Float = 0.4

    @Option(name: .customLong("min-hits"), help: ArgumentHelp("With --smooth: frames of the window an object must be seen in before it is reported; from then on it is reported while seen or coasting.", valueName: "n"))
    var minHits: Int = 2

    @Option(help: ArgumentHelp("With --smooth: the number of recent processed frames --min-hits counts over.", valueName: "n"))
    var window: Int = 5

    @Option(name: .customLong("match-iou"), help: ArgumentHelp("With --smooth: least IoU for a detection to continue a track of its class.", valueName: "iou"))
    var matchIou: Float = 0.3

    @Option(help: ArgumentHelp("With --smooth: an object missed in up to this many frames in a row is still reported (its last box), so a missed detection does not make it blink.", valueName: "n"))
    var coast: Int = 1

    @Option(help: ArgumentHelp("Emit a \"settled\" event when K consecutive processed frames show the same objects (same count and classes, every box matched above --settle-iou); again only when the scene settles other than it last did.", valueName: "k"))
    var settle: Int?

    @Option(name: .customLong("settle-iou"), help: ArgumentHelp("IoU every box must keep with its counterpart for the scene to count as unchanged.", valueName: "iou"))
    var settleIou: Float = 0.85

    @Option(help: ArgumentHelp("json (detection objects) or array (flat [class, score, xmin, xmax, ymin, ymax] per detection).", valueName: "format"))
    var format: VideoOutputFormat = .json

    func validate() throws {
        if let fps, fps > Self.maximumFrameRate { throw frameRateProblem(fps) }
        // The tracker's and the settle count's options are checked with or without --smooth and --settle,
        // so that a typo is not silently ignored.
        switch pipelineOptions(checkingAll: true).fault {
        case nil: break
        case .every: throw ValidationError("--every must be at least 1, got \(every)")
        case .frameRate: throw frameRateProblem(fps ?? .nan)
        case .tracking(let problem): throw ValidationError("--smooth: \(problem)")
        case .settle(let problem): throw ValidationError("--settle: \(problem)")
        }
    }

    /// The message for a `--fps` value outside (0, maximumFrameRate].
    private func frameRateProblem(_ fps: Double) -> ValidationError {
        ValidationError("--fps must be a number above 0 and at most \(Int(Self.maximumFrameRate)), got \(fps)")
    }

    /// The pipeline's options from the arguments; `checkingAll` adds the tracker's, which apply under
    /// --smooth, and the settle count's (of one frame without --settle), for their checks.
    private func pipelineOptions(checkingAll: Bool) -> VideoPipelineOptions {
        VideoPipelineOptions(every: every, realtime: realtime, frameRate: fps,
                             tracking: checkingAll || smooth ? TrackerOptions(ema: ema, minHits: minHits, window: window, matchIoU: matchIou, coast: coast) : nil,
                             settle: (settle ?? (checkingAll ? 1 : nil)).map { SettleOptions(frames: $0, iou: settleIou) })
    }

    /// The highest `--fps` accepted: a thousand frames a second is past any camera's.
    static let maximumFrameRate = 1000.0

    func run() throws {
        let detector = try options.makeDetector()
        try options.createSaveDirectory()
        let clock = ContinuousClock(), start = clock.now
        /// The closing line, after whatever ended the stream.
        func end(_ counts: SamplingCounts, failed: Int) throws {
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            try emit(VideoReport.endLine(source: sourceName, counts: counts, failed: failed, wallSeconds: seconds))
        }
        let frames: any FrameSource
        do {
            frames = try openSource(decoder: detector.decoder)
        } catch VideoError.interrupted(_, let signal) {
            // Interrupted while waiting for the header: as an interrupt mid-stream, the end line and 130/143.
            try end(SamplingCounts(), failed: 0)
            throw Interrupted(signal: signal)
        } catch {
            // A source that cannot be opened is reported in the stream's own terms, as a stream error.
            try emit(VideoReport.streamErrorLine(source: sourceName, message: "\(error)"))
            try end(SamplingCounts(), failed: 0)
            throw ExitCode(ExitStatus.someInputsFailed)
        }
        if let directory = frames as? ImageDirectorySource {
            for (path, kind) in directory.skipped { StandardStreams.message("warning: skipping '\(path)': \(kind)") }
        }
        let rotations = options.rotationPasses
        // The options were validated with the arguments (`validate()`).
        let pipeline = VideoPipeline(source: frames, detector: ModelFrameDetector(detector: detector, rotations: rotations ?? [.degrees0]),
                                     options: pipelineOptions(checkingAll: false), clock: SystemFrameClock())
        let array = format == .array, showsRotation = rotations != nil
        var failed = 0
        var streamFailed = false
        var interruption: Int32?
        var saveFailure: CommandFailure?
        do {
            try pipeline.run { event in
                switch event {
                case .frame(let report):
                    var saved: String?
                    if let save = options.save {
                        do {
                            saved = try saveFrame(report, directory: save)
                        } catch {
                            // The frame is reported and counted as failed; the stream ends below.
                            failed += 1
                            try emit(VideoReport.frameErrorLine(frame: report.frame, time: report.time, file: report.file, message: "\(error)"))
                            throw error
                        }
                    }
                    try emit(VideoReport.frameLine(report, array: array, showsRotation: showsRotation, realtime: realtime, saved: saved))
                case .settled(let frame, let time, let detections):
                    try emit(VideoReport.settledLine(frame: frame, time: time, detections: detections, array: array, showsRotation: showsRotation))
                case .frameFailed(let frame, let time, let file, let message):
                    failed += 1
                    try emit(VideoReport.frameErrorLine(frame: frame, time: time, file: file, message: message))
                }
                if let signal = Interruption.signal { throw Interrupted(signal: signal) }
            }
        } catch let error as Interrupted {
            interruption = error.signal
        } catch VideoError.interrupted(_, let signal) {
            interruption = signal
        } catch let error as VideoError {
            streamFailed = true
            try emit(VideoReport.streamErrorLine(source: frames.name, message: "\(error)"))
        } catch let failure as CommandFailure {
            // A frame that cannot be saved (a full disk, the directory gone) ends the stream as a
            // stream error does, with its event and the end line, and the status says writing failed.
            saveFailure = failure
            try emit(VideoReport.streamErrorLine(source: frames.name, message: failure.description))
        }
        try end(pipeline.counts, failed: failed)
        if let interruption { throw Interrupted(signal: interruption) }
        if let saveFailure { throw saveFailure }
        if failed > 0 || streamFailed { throw ExitCode(ExitStatus.someInputsFailed) }
    }

    /// The source as the JSON lines name it: `stdin` for `-`, else the path.
    private var sourceName: String { source == "-" ? "stdin" : source }

    /// Writes one line to standard output at once, so a reader of a pipe sees each frame as it is done.
    private func emit(_ line: String) throws {
        try StandardStreams.line(line)
    }

    /// A directory of frames, or a YUV4MPEG2 stream (a file, or `-` for standard input).
    private func openSource(decoder: ImageDecoder) throws -> any FrameSource {
        if source != "-", Directory.exists(source) {
            return try ImageDirectorySource(directory: source, frameRate: fps ?? VideoPipelineOptions.defaultFrameRate, decoder: decoder)
        }
        return try Y4MReader(path: source, maxPixels: decoder.maxPixels, parallel: .computeThreads)
    }

    /// Writes the frame with its boxes (and track ids) drawn to `<dir>/frame_NNNNNN.png` (or `_2`, …
    /// where that exists) and returns the path written.
    private func saveFrame(_ report: FrameReport, directory: String) throws -> String {
        let boxes = report.detections.map { object -> BoxAnnotation in
            let d = object.detection
            if let track = object.track {
                return BoxAnnotation(x1: d.box.x1, y1: d.box.y1, x2: d.box.x2, y2: d.box.y2, classId: d.classId,
                                     text: "#\(track) \(d.label) \(String(cFormat: "%.2f", d.confidence))")
            }
            return BoxAnnotation(x1: d.box.x1, y1: d.box.y1, x2: d.box.x2, y2: d.box.y2, classId: d.classId, name: d.label, confidence: d.confidence)
        }
        let wanted = Directory.appending(String(cFormat: "frame_%06d", report.frame), to: directory) + options.saveFormat.fileExtension
        let written = try CommandFailure.writing { try Annotator.annotate(report.image, boxes: boxes).write(to: wanted, format: options.saveFormat) }
        if written != wanted { StandardStreams.message("warning: '\(wanted)' exists; saved as '\(written)'") }
        return written
    }
}
