import SwiftYOLO
import YOLORecipes
import YOLOVideo

/// What `VideoPipeline` asks of a detector: the detections in one frame. `ModelFrameDetector`
/// runs the model; tests substitute scripted detectors.
public protocol FrameDetector {
    /// The frame's detections (boxes in its pixels, best first) with the rotation pass that found
    /// each, and the time spent.
    func detect(_ frame: VideoFrame) throws -> (detections: [RotatedDetection], timings: StageTimings)
}

/// Runs a `Detector` on each frame, with a rotation pass when given more than the upright turn.
public struct ModelFrameDetector: FrameDetector {
    /// The detector that runs on each frame (its options apply).
    public let detector: Detector
    /// The turns each frame is detected in, merged by NMS (`[.degrees0]`: no rotation pass).
    public let rotations: [Rotation]

    /// - Precondition: `rotations` is not empty.
    public init(detector: Detector, rotations: [Rotation] = [.degrees0]) {
        precondition(!rotations.isEmpty, "ModelFrameDetector needs at least one rotation")
        self.detector = detector
        self.rotations = rotations
    }

    public func detect(_ frame: VideoFrame) throws -> (detections: [RotatedDetection], timings: StageTimings) {
        let result = try detector.run(frame.image, rotations: rotations)
        return (result.detections, result.timings)
    }
}
