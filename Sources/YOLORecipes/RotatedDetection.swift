import YOLODetect

/// A detection (box in original-image pixels) with the rotation pass that found it.
public struct RotatedDetection: Sendable, Hashable {
    /// The detection, its box in the original (unturned) image.
    public var detection: Detection
    /// The turn of the pass that found it.
    public var rotation: Rotation

    /// Pairs a detection with the pass that found it.
    public init(detection: Detection, rotation: Rotation) {
        self.detection = detection
        self.rotation = rotation
    }
}
