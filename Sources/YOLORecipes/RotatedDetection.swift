import YOLODetect

/// A detection (box in original-image pixels) with the rotation pass that found it.
public struct RotatedDetection: Sendable, Hashable {
    public var detection: Detection
    public var rotation: Rotation

    public init(detection: Detection, rotation: Rotation) {
        self.detection = detection
        self.rotation = rotation
    }
}
