import Foundation
import Testing
import SwiftYOLOVideo
import TestSupport

/// `VideoPipeline` on streams built from the sample images, with `SquareDetector` standing in for
/// the model: frame counts, sampling, dropped frames, track identities, smoothing and settle events.
@Suite struct VideoPipelineTests {
    /// Runs the pipeline and collects its events.
    static func run(_ source: any FrameSource, options: VideoPipelineOptions, detector: SquareDetector = SquareDetector(),
                    clock: any FrameClock = SystemFrameClock()) throws -> (frames: [FrameReport], settled: [(frame: Int, detections: [StreamDetection])], failed: [(Int, String)], counts: SamplingCounts) {
        let pipeline = VideoPipeline(source: source, detector: detector, options: options, clock: clock)
        var frames: [FrameReport] = [], settled: [(Int, [StreamDetection])] = [], failed: [(Int, String)] = []
        try pipeline.run { event in
            switch event {
            case .frame(let report): frames.append(report)
            case .settled(let frame, _, let detections): settled.append((frame, detections))
            case .frameFailed(let frame, _, _, let message): failed.append((frame, message))
            }
        }
        return (frames, settled, failed, pipeline.counts)
    }

    /// A pan across the background (4 px a frame) carrying two red squares, and a blue square that
    /// enters at frame 5 and leaves after frame 10.
    static func panFrames() -> [RGBImage] {
        (0..<16).map { k in
            var squares = [Scenes.Square(red: true, x: 60 - 4 * k, y: 20), Scenes.Square(red: true, x: 84 - 4 * k, y: 20)]
            if (5...10).contains(k) { squares.append(Scenes.Square(red: false, x: 40, y: 44)) }
            return Scenes.frame(panX: 4 * k, squares: squares)
        }
    }

    @Test func rawDetectionsOfEveryFrame() throws {
        let result = try Self.run(try Scenes.stream("pan", frames: Self.panFrames()), options: VideoPipelineOptions())
        #expect(result.frames.map(\.frame) == Array(0..<16))
        let times: [Double] = (0..<16).map { frame in Double(frame) / 25 }
        #expect(result.frames.map(\.time) == times)
        #expect(result.counts == SamplingCounts(read: 16, processed: 16, skipped: 0, dropped: 0))
        #expect(result.frames.map(\.detections.count) == (0..<16).map { (5...10).contains($0) ? 3 : 2 })
        // The squares come back exactly where they were drawn, through YUV 4:2:0 and back.
        let boxes = result.frames[7].detections.map(\.detection.box)
        #expect(boxes == [Scenes.Square(red: true, x: 32, y: 20).box, Scenes.Square(red: true, x: 56, y: 20).box, Scenes.Square(red: false, x: 40, y: 44).box])
        #expect(result.frames.allSatisfy { $0.detections.allSatisfy { $0.track == nil } })
        #expect(result.settled.isEmpty)
    }

    @Test func tracksKeepTheirIdentitiesAcrossThePanAndBoxesAreSmoothed() throws {
        let options = VideoPipelineOptions(tracking: TrackerOptions(ema: 0.4, minHits: 2, window: 5))
        let result = try Self.run(try Scenes.stream("pan-tracked", frames: Self.panFrames()), options: options)
        #expect(result.frames.count == 16)
        let tracks = result.frames.map { Set($0.detections.compactMap(\.track)) }
        #expect(tracks[0].isEmpty, "nothing is reported before its second sighting")
        // Red squares are tracks 1 and 2 throughout; the blue one is track 3, reported from its
        // second sighting (frame 6), and for one frame (11) after it left.
        for k in 1..<16 {
            #expect(tracks[k] == ((6...11).contains(k) ? [1, 2, 3] : [1, 2]), "frame \(k): \(tracks[k])")
        }
        // Track 1's box is the moving average 0.4 · observed + 0.6 · previous of the drawn boxes.
        var expected: Float = 60
        for k in 1..<16 {
            expected = 0.4 * Float(60 - 4 * k) + 0.6 * expected
            let box = try #require(result.frames[k].detections.first { $0.track == 1 }?.detection.box)
            #expect(abs(box.x1 - expected) < 1e-3 && abs(box.x2 - (expected + 12)) < 1e-3 && box.y1 == 20, "frame \(k): \(box.x1) vs \(expected)")
        }
        // The frame after leaving, the blue track keeps its last smoothed box.
        let blue = result.frames[11].detections.first { $0.track == 3 }?.detection
        #expect(blue?.label == "blue" && blue?.box.x1 == 40)
    }

    /// Squares moving 6 px a frame over a panning background for frames 0…5, still in 6…13; a blue
    /// square appears at 14 and all stay still to the end (frame 19).
    static func settleFrames() -> [RGBImage] {
        (0..<20).map { k in
            let t = min(k, 6)
            var squares = [Scenes.Square(red: true, x: 70 - 6 * t, y: 10), Scenes.Square(red: true, x: 4 + 6 * t, y: 40)]
            if k >= 14 { squares.append(Scenes.Square(red: false, x: 60, y: 46)) }
            return Scenes.frame(panX: 2 * t, squares: squares)
        }
    }

    @Test func settlesExactlyWhenKFramesAgreeAndAgainAfterTheSceneChanged() throws {
        let result = try Self.run(try Scenes.stream("settle", frames: Self.settleFrames()), options: VideoPipelineOptions(settle: SettleOptions(frames: 4)))
        #expect(result.settled.map(\.frame) == [9, 17])
        // Left to right: the upper square (x 70 − 36 = 34), the lower one (x 4 + 36 = 40), then the blue one.
        let first = result.settled[0].detections.map(\.detection.box.x1)
        #expect(first == [34, 40])
        #expect(result.settled[1].detections.map(\.detection.box.x1) == [34, 40, 60])
        #expect(result.settled[1].detections.map(\.detection.label) == ["red", "red", "blue"])
    }

    /// A directory's pictures may differ in size: tracks coasting from a larger frame were reported
    /// on a smaller one with boxes outside it, and the settle count compared them. A frame of
    /// another size starts both afresh, and the objects found from then on get new ids (the first
    /// object of the scene after the change was track 1 again).
    @Test func aFrameOfAnotherSizeStartsTracksAndSettlingAfresh() throws {
        let large = Scenes.frame(panX: 0, squares: [Scenes.Square(red: true, x: 70, y: 40)])
        let small = RGBImage(width: 7, height: 5, fill: (60, 60, 60))
        let options = VideoPipelineOptions(tracking: TrackerOptions(minHits: 1, window: 3, coast: 2), settle: SettleOptions(frames: 2))
        let result = try Self.run(FramesSource([large, large, small, small, large]), options: options)
        #expect(result.frames.map(\.detections.count) == [1, 1, 0, 0, 1], "no track coasts into the small frames")
        #expect(result.frames[1].detections.first?.track == 1)
        #expect(result.frames[4].detections.first?.track == 2, "a new id after the change")
        // Settled over frames 0–1 (the square), and over 2–3 (the empty small frames), not across the change.
        #expect(result.settled.map(\.frame) == [1, 3])
    }

    @Test func settleCountsProcessedFramesUnderEvery() throws {
        let options = VideoPipelineOptions(every: 2, settle: SettleOptions(frames: 4))
        let result = try Self.run(try Scenes.stream("settle-every", frames: Self.settleFrames()), options: options)
        #expect(result.frames.map(\.frame) == Array(stride(from: 0, to: 20, by: 2)))
        #expect(result.counts == SamplingCounts(read: 20, processed: 10, skipped: 10, dropped: 0))
        // Still from frame 6: processed frames 6, 8, 10, 12 → settled at 12; the change at 14 leaves
        // only 14, 16, 18 before the end.
        #expect(result.settled.map(\.frame) == [12])
    }

    @Test func settleWithTrackingReportsTheTrackedObjects() throws {
        let options = VideoPipelineOptions(tracking: TrackerOptions(ema: 1, minHits: 1, window: 3), settle: SettleOptions(frames: 4))
        let result = try Self.run(try Scenes.stream("settle-tracked", frames: Self.settleFrames()), options: options)
        #expect(result.settled.map(\.frame) == [9, 17])
        #expect(result.settled[1].detections.map(\.track) == [1, 2, 3], "left to right, with their track ids")
    }

    /// Under smoothing the settle count watches the boxes detected in each frame, so the scene settles
    /// when the squares stop, as without tracking. The smoothed boxes trail squares moving 6 px a
    /// frame by 14 px at `ema` 0.3 and then close 70% of the gap a frame: watching them, the scene
    /// never settled after the squares stopped (only at frame 17, on the later change). It is
    /// reported smoothed, with its track ids.
    @Test func settleWithSmoothingWatchesTheDetectedBoxes() throws {
        let options = VideoPipelineOptions(tracking: TrackerOptions(ema: 0.3, minHits: 1, window: 3), settle: SettleOptions(frames: 4))
        let result = try Self.run(try Scenes.stream("settle-smoothed", frames: Self.settleFrames()), options: options)
        #expect(result.settled.map(\.frame) == [9, 17])
        #expect(result.settled.last?.detections.map(\.track) == [1, 2, 3])
        let reported = result.settled.first?.detections.map(\.detection.box.x1) ?? []
        #expect(reported.count == 2 && reported != [34, 40], "smoothed, still trailing the detected 34 and 40: \(reported)")
    }

    @Test func realtimeReportsTheFramesDroppedBeforeEachProcessedOne() throws {
        // 10 fps, 0.25 s per frame (simulated): frames 0, 2, 5, 7, 10, 11 processed.
        let clock = ManualClock()
        let frames = Array(Self.panFrames().prefix(12))
        let result = try Self.run(try Scenes.stream("realtime", frames: frames, rate: 10), options: VideoPipelineOptions(realtime: true),
                                  detector: SquareDetector(clock: clock, secondsPerFrame: 0.25), clock: clock)
        #expect(result.frames.map(\.frame) == [0, 2, 5, 7, 10, 11])
        #expect(result.frames.map(\.dropped) == [0, 1, 2, 1, 2, 0])
        #expect(result.counts == SamplingCounts(read: 12, processed: 6, skipped: 0, dropped: 6))
        #expect(result.frames[2].detections.map(\.detection.box.x1) == [40, 64, 40], "frame 5's own squares")
    }

    @Test func aBadFrameInADirectoryIsReportedAndTheOthersRun() throws {
        let directory = try ScratchDirectory.fresh("pan-frames")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (k, frame) in Self.panFrames().prefix(4).enumerated() { try frame.writePNG(to: directory + "/pan\(k).png") }
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: directory + "/pan2b.png"))
        let source = try ImageDirectorySource(directory: directory, frameRate: 2)
        let result = try Self.run(source, options: VideoPipelineOptions(tracking: TrackerOptions()))
        #expect(result.frames.map(\.frame) == [0, 1, 2, 4])
        #expect(result.frames.map { ($0.file as NSString?)?.lastPathComponent } == ["pan0.png", "pan1.png", "pan2.png", "pan3.png"])
        #expect(result.frames.last?.time == 2)
        #expect(result.failed.count == 1 && result.failed.first?.0 == 3 && result.failed.first?.1.contains("pan2b.png") == true)
        #expect(result.frames.last?.detections.compactMap(\.track) == [1, 2], "tracks go on across the bad frame")
    }

    /// A source whose own frame rate is not a positive number is refused when the options give none
    /// (the sampler trapped on it); with a rate in the options it runs.
    @Test func aSourceFrameRateThatIsNoRateIsRefused() throws {
        let frame = RGBImage(width: 7, height: 5, fill: (60, 60, 60))
        for rate: Double in [0, -1, .nan, .infinity] {
            #expect(throws: DetectorError.self, "rate \(rate)") {
                try VideoPipeline(source: FramesSource([frame], frameRate: rate), detector: SquareDetector())
            }
        }
        let pipeline = try VideoPipeline(source: FramesSource([frame], frameRate: 0), detector: SquareDetector(),
                                         options: VideoPipelineOptions(frameRate: 10))
        #expect(pipeline.frameRate == 10)
    }
}
