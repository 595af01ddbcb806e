/// How `ObjectTracker` matches and smooths (`--ema`, `--min-hits`, `--window`, `--match-iou`).
public struct TrackerOptions: Sendable, Equatable {
    /// Weight of the newest box in the exponential moving average:
    /// `smoothed = ema · observed + (1 − ema) · previous`. 1 follows the detections exactly.
    public var ema: Float = 0.4
    /// An object is reported once it was seen in at least this many …
    public var minHits: Int = 2
    /// … of the last `window` processed frames; a track unseen for `window` frames is forgotten (until
    /// then a returning object keeps its id).
    public var window: Int = 5
    /// A detection continues a track of its class when their boxes overlap by at least this IoU.
    public var matchIoU: Float = 0.3
    /// A reported object missed in up to this many consecutive frames is still reported (with its
    /// last smoothed box), so one missed detection does not make it blink; 0 reports only objects
    /// seen in the frame. Once reported, an object needs no new `minHits` to stay reported.
    public var coast: Int = 1

    /// The options above, by name (the defaults are `swift-yolo video --smooth`'s); check `problem` before use.
    public init(ema: Float = 0.4, minHits: Int = 2, window: Int = 5, matchIoU: Float = 0.3, coast: Int = 1) {
        self.ema = ema
        self.minHits = minHits
        self.window = window
        self.matchIoU = matchIoU
        self.coast = coast
    }

    /// A reason the options are unusable, or `nil`.
    public var problem: String? {
        if !(ema > 0 && ema <= 1) { return "ema must lie in (0, 1], got \(ema)" }
        if window < 1 { return "window must be at least 1, got \(window)" }
        if minHits < 1 || minHits > window { return "min-hits must lie in 1…window (\(window)), got \(minHits)" }
        if !(matchIoU > 0 && matchIoU <= 1) { return "match IoU must lie in (0, 1], got \(matchIoU)" }
        if coast < 0 { return "coast must not be negative, got \(coast)" }
        return nil
    }
}
