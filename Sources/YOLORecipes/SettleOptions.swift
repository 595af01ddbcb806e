/// When `SettleDetector` calls a scene settled (`--settle K`, `--settle-iou`).
public struct SettleOptions: Sendable, Equatable {
    /// Consecutive processed frames that must show the same scene.
    public var frames: Int
    /// Every box must overlap its counterpart by more than this IoU.
    public var iou: Float = 0.85

    /// Options for `frames` consecutive frames agreeing at `iou`; check `problem` before use.
    public init(frames: Int, iou: Float = 0.85) {
        self.frames = frames
        self.iou = iou
    }

    /// A reason the options are unusable, or `nil`.
    public var problem: String? {
        if frames < 1 { return "settle needs at least 1 frame, got \(frames)" }
        if !(iou >= 0 && iou < 1) { return "settle IoU must lie in [0, 1), got \(iou)" }
        return nil
    }
}
