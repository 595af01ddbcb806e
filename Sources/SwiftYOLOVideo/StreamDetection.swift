import YOLODetect
import YOLORecipes

/// One object reported for a frame of a stream: the detection, the rotation pass that found it
/// (`.degrees0` without a rotation pass) and, when tracking, its track id.
public struct StreamDetection: Sendable, Equatable {
    public var detection: Detection
    public var rotation: Rotation
    public var track: Int?

    public init(detection: Detection, rotation: Rotation = .degrees0, track: Int? = nil) {
        self.detection = detection
        self.rotation = rotation
        self.track = track
    }
}
