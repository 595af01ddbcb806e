import Foundation
import Testing
import YOLOImage
import YOLOVideo
import TestSupport

/// `--every N` and `--realtime` on streams built in code, with time simulated by `ManualClock`.
@Suite struct FrameSamplerTests {
    static func reader(frames: Int, rate: Int = 10) throws -> Y4MReader {
        let bytes = Y4MReaderTests.greyStream(count: frames, rate: (rate, 1))
        return try Y4MReader(path: try TestStreams.temporaryFile("sampler-\(frames)-\(rate).y4m", bytes: bytes))
    }

    /// Runs the sampler to the end, spending `work` simulated seconds on each frame it hands out.
    static func drain(_ sampler: FrameSampler, clock: ManualClock? = nil, work: Double = 0) throws -> (frames: [Int], dropped: [Int]) {
        var frames: [Int] = [], dropped: [Int] = []
        while let (frame, drops) = try sampler.next() {
            frames.append(frame.index)
            dropped.append(drops)
            clock?.time += work
        }
        return (frames, dropped)
    }

    @Test func everyNthFrame() throws {
        for (every, expected) in [(1, Array(0..<30)), (3, Array(stride(from: 0, to: 30, by: 3))), (7, [0, 7, 14, 21, 28])] {
            let sampler = FrameSampler(source: try Self.reader(frames: 30), every: every, frameRate: 10)
            let run = try Self.drain(sampler)
            #expect(run.frames == expected)
            #expect(sampler.counts == SamplingCounts(read: 30, processed: expected.count, skipped: 30 - expected.count, dropped: 0))
        }
    }

    @Test func realtimeDropsWhatArrivesWhileBusy() throws {
        // 10 fps (a frame every 0.1 s), 0.25 s per frame: when frame 0 is done at 0.25 s, frames 1
        // and 2 have arrived; 2 is taken and 1 dropped; done at 0.5 s, 3…5 have arrived; and so on.
        // At the end the last frame is taken even though its successors would have arrived.
        let clock = ManualClock()
        let sampler = FrameSampler(source: try Self.reader(frames: 30), realtime: true, frameRate: 10, clock: clock)
        let run = try Self.drain(sampler, clock: clock, work: 0.25)
        #expect(run.frames == [0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 25, 27, 29])
        #expect(run.dropped == [0, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 1])
        #expect(sampler.counts == SamplingCounts(read: 30, processed: 13, skipped: 0, dropped: 17))
        #expect(clock.sleeps.isEmpty, "never ahead of the source")
    }

    @Test func realtimeWithEveryCountsOnlySampledFramesAsDropped() throws {
        // Every 2nd frame of 10 fps: sampled frames arrive every 0.2 s; 0.5 s of work each.
        let clock = ManualClock()
        let sampler = FrameSampler(source: try Self.reader(frames: 20), every: 2, realtime: true, frameRate: 10, clock: clock)
        let run = try Self.drain(sampler, clock: clock, work: 0.5)
        // done at 0.5 → sampled 2 (frame 4) arrived; at 1.0 → sampled 5 (frame 10); at 1.5 → 7 (14); 2.0 → 10 > 9: frame 18 last.
        #expect(run.frames == [0, 4, 10, 14, 18])
        #expect(run.dropped == [0, 1, 2, 1, 1])
        #expect(sampler.counts == SamplingCounts(read: 20, processed: 5, skipped: 10, dropped: 5))
    }

    @Test func realtimeWaitsForFramesWhenFasterThanTheSource() throws {
        let clock = ManualClock()
        let sampler = FrameSampler(source: try Self.reader(frames: 5), realtime: true, frameRate: 10, clock: clock)
        let run = try Self.drain(sampler, clock: clock, work: 0.04)
        #expect(run.frames == [0, 1, 2, 3, 4] && run.dropped.allSatisfy { $0 == 0 })
        // Each frame is read before its time is waited for, so the end of the file is found at
        // once; it waited for a 6th frame's time (0.5 s) before.
        #expect(clock.sleeps.count == 4 && zip(clock.sleeps, [0.1, 0.2, 0.3, 0.4]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(clock.sleeps)")
        #expect(sampler.counts == SamplingCounts(read: 5, processed: 5, skipped: 0, dropped: 0))
    }

    /// A live source slower than the rate it declares: 10 fps declared, a frame arriving each
    /// second. The clock says frames 0…9 are due by the time frame 1 arrives; they were read
    /// (blocking) and all but the last dropped. Only frames that have arrived are dropped now.
    @Test func realtimeDropsNothingFromASlowLiveSource() throws {
        let clock = ManualClock()
        let source = ArrivingSource(try Self.reader(frames: 6))
        let sampler = FrameSampler(source: source, realtime: true, frameRate: 10, clock: clock)
        var frames: [Int] = []
        while let (frame, dropped) = try sampler.next() {
            frames.append(frame.index)
            #expect(dropped == 0)
            clock.time += 1  // a second later the next frame has arrived, and only it
            source.arrived = frame.index + 2
        }
        #expect(frames == Array(0..<6))
        #expect(sampler.counts == SamplingCounts(read: 6, processed: 6, skipped: 0, dropped: 0))
        // When frames have arrived they are dropped as before: three at once, the newest taken.
        let burst = ArrivingSource(try Self.reader(frames: 6)), burstClock = ManualClock()
        let again = FrameSampler(source: burst, realtime: true, frameRate: 10, clock: burstClock)
        burst.arrived = 1
        _ = try again.next()
        burstClock.time = 0.3
        burst.arrived = 4
        let newest = try #require(try again.next())
        #expect(newest.frame.index == 3 && newest.dropped == 2)
    }

    @Test func directoryFramesInNameOrderAndABadImageIsReportedForItsFrame() throws {
        let directory = try ScratchDirectory.fresh("frames")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let zidane = TestStreams.shrink(try ImageDecoder().decode(contentsOf: TestStreams.zidane), by: 16)
        for name in ["f10.png", "f02.png", "f03.png"] { try zidane.writePNG(to: directory + "/" + name) }
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: directory + "/f05.jpg"))
        try Data("ignored".utf8).write(to: URL(fileURLWithPath: directory + "/notes.txt"))
        let source = try ImageDirectorySource(directory: directory, frameRate: 4)
        #expect(source.files.map { ($0 as NSString).lastPathComponent } == ["f02.png", "f03.png", "f05.jpg", "f10.png"])
        var decoded: [Int] = [], failed: [Int] = []
        while let pending = try source.read() {
            do {
                let frame = try pending.decode()
                #expect(frame.image.width == 80 && frame.time == Double(frame.index) / 4)
                decoded.append(frame.index)
            } catch {
                #expect(error.isRecoverable && "\(error)".contains("f05.jpg") && "\(error)".contains("frame 2"), "\(error)")
                failed.append(pending.index)
            }
        }
        #expect(decoded == [0, 1, 3] && failed == [2])
        let empty = directory + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        #expect(throws: VideoError.noFrames(source: empty)) { try ImageDirectorySource(directory: empty, frameRate: 30) }
    }
}
