import YOLORecipes

/// How `VideoPipeline` samples and post-processes a stream.
package struct VideoPipelineOptions: Sendable, Equatable {
    /// Process every Nth frame (`--every`).
    package var every = 1
    /// Drop frames that arrive while the previous one is being processed (`--realtime`).
    package var realtime = false
    /// Frames per second: overrides the source's (a directory has none; then 30).
    package var frameRate: Double?
    /// Track and smooth objects (`--smooth`); `nil` reports raw detections.
    package var tracking: TrackerOptions?
    /// Emit settle events (`--settle K`); `nil` emits none.
    package var settle: SettleOptions?

    package init(every: Int = 1, realtime: Bool = false, frameRate: Double? = nil, tracking: TrackerOptions? = nil,
                settle: SettleOptions? = nil) {
        self.every = every
        self.realtime = realtime
        self.frameRate = frameRate
        self.tracking = tracking
        self.settle = settle
    }

    /// The frame rate of directories, which declare none.
    package static let defaultFrameRate = 30.0
}
