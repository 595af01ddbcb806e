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
    public var problem: String? { fault?.description }

    /// The first option that is unusable, and why: the one check behind `problem` and the command
    /// line's own messages, which name its flags.
    package enum Fault: CustomStringConvertible, Equatable {
        case every(Int)
        case frameRate(Double)
        case tracking(String)
        case settle(String)

        package var description: String {
            switch self {
            case .every(let every): "every must be at least 1, got \(every)"
            case .frameRate(let rate): "frame rate must be positive, got \(rate)"
            case .tracking(let problem), .settle(let problem): problem
            }
        }
    }

    /// The first unusable option, or `nil`.
    package var fault: Fault? {
        if every < 1 { return .every(every) }
        if let frameRate, !(frameRate > 0 && frameRate.isFinite) { return .frameRate(frameRate) }
        if let problem = tracking?.problem { return .tracking(problem) }
        return settle?.problem.map(Fault.settle)
    }

    /// The frame rate of directories, which declare none.
    public static let defaultFrameRate = 30.0
}
