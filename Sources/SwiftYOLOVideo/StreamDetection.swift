import YOLODetect
import YOLORecipes

/// One object reported for a frame of a stream: the detection, the rotation pass that found it
/// (`.degrees0` without a rotation pass) and, when tracking, its track id.
public struct StreamDetection: Sendable, Equatable {
    /// The detection (smoothed when tracking), its box in the frame's pixels.
    public var detection: Detection
    /// The turn of the pass that found it.
    public var rotation: Rotation
    /// The track id when tracking, stable across frames; `nil` otherwise.
    public var track: Int?

    /// An object by its parts.
    public init(detection: Detection, rotation: Rotation = .degrees0, track: Int? = nil) {
        self.detection = detection
        self.rotation = rotation
        self.track = track
    }
}
