import YOLOFileSystem

/// How many frames a `FrameSampler` read, handed on, and passed over.
public struct SamplingCounts: Sendable, Equatable {
    /// Frames read from the source.
    public var read = 0
    /// Frames handed on for processing.
    public var processed = 0
    /// Frames passed over by `--every` (not sampled).
    public var skipped = 0
    /// Sampled frames dropped in realtime mode because a newer one had arrived by the time the
    /// previous frame was done.
    public var dropped = 0

    /// Counts, by name (zero by default).
    public init(read: Int = 0, processed: Int = 0, skipped: Int = 0, dropped: Int = 0) {
        self.read = read
        self.processed = processed
        self.skipped = skipped
        self.dropped = dropped
    }
}

/// Chooses which frames of a source get processed.
///
/// - `every N`: frames 0, N, 2N, … (a tennis app runs every 3rd frame of a 30 fps clip).
/// - `realtime`: the source is played at its frame rate, as a camera delivers it: sampled frame k
///   arrives `k · N / fps` seconds after the first. When the caller asks for the next frame (the
///   previous one is done), it gets the newest sampled frame that has arrived, and the older ones
///   that arrived meanwhile are dropped and counted; if none has arrived yet, it waits for the
///   next. So a live source never queues up, and a file plays at its real speed. A live source
///   slower than its declared rate loses nothing: a frame counts as arrived only when the source
///   has it (`FrameSource.nextFrameHasArrived`), not merely because its time has come.
///
/// Frames passed over are read but never converted. The frames handed on carry times at the
/// sampler's rate (`index / frameRate`), so a rate given by the caller overrides the source's.
package final class FrameSampler {
    package let source: any FrameSource
    package let every: Int
    package let realtime: Bool
    /// Frames per second used to pace realtime mode.
    package let frameRate: Double
    package private(set) var counts = SamplingCounts()
    private let clock: any FrameClock
    private var start: Double?

    /// - Parameters:
    ///   - every: process every Nth frame (N ≥ 1).
    ///   - realtime: drop frames that arrive while the previous one is being processed.
    ///   - frameRate: frames per second (the source's, or one given for a directory); must be positive.
    ///   - clock: where realtime mode reads the time.
    package init(source: any FrameSource, every: Int = 1, realtime: Bool = false, frameRate: Double,
                clock: any FrameClock = SystemFrameClock()) {
        precondition(every >= 1, "FrameSampler: every must be at least 1, got \(every)")
        precondition(frameRate > 0 && frameRate.isFinite, "FrameSampler: frame rate must be positive, got \(frameRate)")
        self.source = source
        self.every = every
        self.realtime = realtime
        self.frameRate = frameRate
        self.clock = clock
    }

    /// The next frame to process, with the number of sampled frames dropped just before it (always
    /// 0 unless realtime); `nil` at the end of the source.
    package func next() throws(VideoError) -> (frame: PendingFrame, dropped: Int)? {
        realtime ? try nextRealtime() : try nextEvery().map { ($0, 0) }
    }

    /// The next frame whose index is a multiple of `every`.
    private func nextEvery() throws(VideoError) -> PendingFrame? {
        while let frame = try source.read() {
            counts.read += 1
            if frame.index % every == 0 {
                counts.processed += 1
                return frame.retimed(frameRate: frameRate)
            }
            counts.skipped += 1
        }
        return nil
    }

    private func nextRealtime() throws(VideoError) -> (frame: PendingFrame, dropped: Int)? {
        let interval = Double(every) / frameRate
        let now = clock.now()
        let start = self.start ?? now
        self.start = start
        // The newest sampled frame that has arrived (a nanosecond's slack against rounding).
        // Clamped: a huge rate or a long wait must not overflow the conversion to Int.
        let arrived = ((now - start) / interval + 1e-9).rounded(.down)
        let target = arrived < Double(Int.max / 2) ? Int(arrived) : Int.max / 2
        var held: PendingFrame?
        var dropped = 0, handedOn = false
        // However this call ends, a sampled frame read and not handed on counts as dropped, so that
        // `read` = `processed` + `skipped` + `dropped` also after an interrupt during the wait or a read.
        defer { counts.dropped += dropped + (held != nil && !handedOn ? 1 : 0) }
        // Frames past the first are read only while they have arrived: a slow live source's next
        // frame is not there yet, and the one held is the newest.
        while held == nil || source.nextFrameHasArrived, let frame = try source.read() {
            counts.read += 1
            guard frame.index % every == 0 else {
                counts.skipped += 1
                continue
            }
            if held != nil { dropped += 1 }
            held = frame
            if frame.index / every >= target { break }
        }
        guard let held else { return nil }
        if held.index / every > target {
            // Ahead of the source's time (a file read faster than it plays): wait for the frame's.
            clock.sleep(until: start + Double(held.index / every) * interval)
            if let signal = Interruption.signal { throw .interrupted(source: source.name, signal: signal) }
        }
        handedOn = true
        counts.processed += 1
        return (held.retimed(frameRate: frameRate), dropped)
    }
}
