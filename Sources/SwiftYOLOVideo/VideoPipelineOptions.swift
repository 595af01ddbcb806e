import YOLORecipes

/// How `VideoPipeline` samples and post-processes a stream.
public struct VideoPipelineOptions: Sendable, Equatable {
    /// Process every Nth frame (`--every`).
    public var every = 1
    /// Drop frames that arrive while the previous one is being processed (`--realtime`).
    public var realtime = false
    /// Frames per second: overrides the source's (a directory has none; then 30).
    public var frameRate: Double?
    /// Track and smooth objects (`--smooth`); `nil` reports raw detections.
    public var tracking: TrackerOptions?
    /// Emit settle events (`--settle K`); `nil` emits none.
    public var settle: SettleOptions?

    /// The options above, by name (the defaults process every frame, untracked, with no settle events).
    public init(every: Int = 1, realtime: Bool = false, frameRate: Double? = nil, tracking: TrackerOptions? = nil,
                settle: SettleOptions? = nil) {
        self.every = every
        self.realtime = realtime
        self.frameRate = frameRate
        self.tracking = tracking
        self.settle = settle
    }

    /// A reason the options are unusable, or `nil`.
    public var problem: String? {
        if every < 1 { return "every must be at least 1, got \(every)" }
        if let frameRate, !(frameRate > 0 && frameRate.isFinite) { return "frame rate must be positive, got \(frameRate)" }
        if let problem = tracking?.problem { return problem }
        return settle?.problem
    }

    /// The frame rate of directories, which declare none.
    public static let defaultFrameRate = 30.0
}
