import YOLODetect
import YOLORecipes

/// One object reported for a frame of a stream: the detection, the rotation pass that found it
/// (`.degrees0` without a rotation pass) and, when tracking, its track id.
package struct StreamDetection: Sendable, Equatable {
    package var detection: Detection
    package var rotation: Rotation
    package var track: Int?

    package init(detection: Detection, rotation: Rotation = .degrees0, track: Int? = nil) {
        self.detection = detection
        self.rotation = rotation
        self.track = track
    }
}
