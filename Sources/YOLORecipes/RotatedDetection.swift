import YOLODetect

/// A detection (box in original-image pixels) with the rotation pass that found it.
package struct RotatedDetection: Sendable, Hashable {
    package var detection: Detection
    package var rotation: Rotation

    package init(detection: Detection, rotation: Rotation) {
        self.detection = detection
        self.rotation = rotation
    }
}
