import SwiftYOLO
import YOLODetect
import YOLOImage
import YOLORecipes
import YOLOVideo

/// A stream of frames in, detections and events out: samples the source (`FrameSampler`),
/// converts and detects in each processed frame, optionally tracks and smooths the objects
/// (`ObjectTracker`) and tells when the scene settles (`SettleDetector`).
///
/// ```swift
/// let source = try Y4MReader(path: "clip.y4m")
/// let pipeline = VideoPipeline(source: source, detector: ModelFrameDetector(detector: detector),
///                              options: VideoPipelineOptions(every: 3, tracking: TrackerOptions()))
/// try pipeline.run { event in print(event) }
/// ```
public final class VideoPipeline {
    /// How the stream is sampled and post-processed.
    public let options: VideoPipelineOptions
    private let sampler: FrameSampler
    private let detector: any FrameDetector
    private var tracker: ObjectTracker?
    private var settle: SettleDetector?
    /// The rotation that last found each track, for tracks coasting through a missed frame.
    private var trackRotations: [Int: Rotation] = [:]
    /// The size of the last frame detected in: a frame of another size (a directory's next picture)
    /// starts the tracks and the settle count afresh, whose boxes belong to the old size.
    private var frameSize: (width: Int, height: Int)?

    /// Reads `source` through `detector` with `options`.
    /// - Throws: `DetectorError.invalidOptions` where `options` are unusable (`VideoPipelineOptions.problem`),
    ///   or where they give no frame rate and the source's is not a positive number.
    public convenience init(source: any FrameSource, detector: any FrameDetector, options: VideoPipelineOptions = VideoPipelineOptions()) throws {
        if let problem = options.problem { throw DetectorError.invalidOptions(reason: problem) }
        if options.frameRate == nil, let rate = source.frameRate, !(rate > 0 && rate.isFinite) {
            throw DetectorError.invalidOptions(reason: "the frame rate of \(source.name) must be positive, got \(rate); give one in the options")
        }
        self.init(source: source, detector: detector, options: options, clock: SystemFrameClock())
    }

    /// The same, reading the time for realtime mode from `clock` (tests give a scripted one).
    /// - Precondition: `options.problem` is `nil`, and the frame rate used (the options', else the
    ///   source's) is a positive number.
    package init(source: any FrameSource, detector: any FrameDetector, options: VideoPipelineOptions = VideoPipelineOptions(),
                 clock: any FrameClock) {
        self.options = options
        let rate = options.frameRate ?? source.frameRate ?? VideoPipelineOptions.defaultFrameRate
        sampler = FrameSampler(source: source, every: options.every, realtime: options.realtime, frameRate: rate, clock: clock)
        self.detector = detector
        tracker = options.tracking.map { ObjectTracker(options: $0) }
        settle = options.settle.map { SettleDetector(options: $0) }
    }

    /// Frames read, processed, skipped and dropped so far.
    public var counts: SamplingCounts { sampler.counts }

    /// The frame rate used for pacing and times.
    public var frameRate: Double { sampler.frameRate }

    /// Processes the whole source, handing each event to `handle` as it happens.
    ///
    /// A frame that fails to decode (a bad image in a directory) or to detect in is reported as
    /// `.frameFailed` and the stream goes on; a stream error (a bad or truncated frame of a Y4M
    /// stream) ends it with a thrown `VideoError`. Errors thrown by `handle` end it too.
    public func run(_ handle: (VideoEvent) throws -> Void) throws {
        while let (pending, dropped) = try sampler.next() {
            var timings = StageTimings()
            let clock = ContinuousClock(), start = clock.now
            let frame: VideoFrame
            switch decode(pending) {
            case .success(let decoded):
                frame = decoded
            case .failure(let error):
                guard error.isRecoverable else { throw error }
                try handle(.frameFailed(frame: pending.index, time: pending.time, file: pending.file, message: "\(error)"))
                continue
            }
            timings.decode = clock.now - start
            let size = (width: frame.image.width, height: frame.image.height)
            if let frameSize, frameSize != size { restartTracking() }
            frameSize = size
            let found: [RotatedDetection]
            do {
                let result = try detector.detect(frame)
                found = result.detections
                timings.preprocess += result.timings.preprocess
                timings.inference += result.timings.inference
                timings.postprocess += result.timings.postprocess
            } catch {
                try handle(.frameFailed(frame: frame.index, time: frame.time, file: frame.file, message: "\(error)"))
                continue
            }
            let (reported, observed) = report(found)
            try handle(.frame(FrameReport(frame: frame.index, time: frame.time, file: frame.file, image: frame.image,
                                          detections: reported, dropped: dropped, timings: timings)))
            if var settle {
                let order = settle.update(observed)
                self.settle = settle
                if let order {
                    try handle(.settled(frame: frame.index, time: frame.time, detections: order.map { reported[$0] }))
                }
            }
        }
    }

    /// Forgets the tracks (their ids are not reused) and the scene the settle count compares with.
    private func restartTracking() {
        tracker?.forgetTracks()
        settle = settle.map { SettleDetector(options: $0.options) }
        trackRotations = [:]
    }

    /// The raw detections, or the tracked objects when tracking.
    /// The objects of a frame as reported (tracked and smoothed under `tracking`), and each one as
    /// the settle count watches it: its box as detected in this frame where it was seen. (A smoothed
    /// box still moves for frames after the object stops, by `1 − ema` of the gap a frame, so settle
    /// events came late, or never for small dice, under `--smooth`.)
    private func report(_ found: [RotatedDetection]) -> (reported: [StreamDetection], observed: [Detection]) {
        guard var tracker else {
            return (found.map { StreamDetection(detection: $0.detection, rotation: $0.rotation) }, found.map(\.detection))
        }
        let objects = tracker.update(found.map(\.detection))
        self.tracker = tracker
        var rotations: [Int: Rotation] = [:]
        let reported = objects.map { object in
            if let seen = object.observation { trackRotations[object.track] = found[seen].rotation }
            let rotation = trackRotations[object.track] ?? .degrees0
            rotations[object.track] = rotation
            return StreamDetection(detection: object.detection, rotation: rotation, track: object.track)
        }
        trackRotations = rotations  // a track can only be reported again after it is seen again
        return (reported, objects.map { object in object.observation.map { found[$0].detection } ?? object.detection })
    }

    private func decode(_ pending: PendingFrame) -> Result<VideoFrame, VideoError> {
        do throws(VideoError) {
            return .success(try pending.decode())
        } catch {
            return .failure(error)
        }
    }
}
