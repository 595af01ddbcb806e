import SwiftYOLO
import YOLORecipes

/// What a rotation pass over one image gave: the merged detections, each with the rotation that
/// found it (boxes in the original image's pixels), and the time of all passes together.
public struct RotationPassResult: Sendable {
    /// The merged detections, best first.
    public let detections: [RotatedDetection]
    /// The original image's size.
    public let imageWidth: Int
    public let imageHeight: Int
    /// Each pass's own result (boxes already mapped to the original image), in the order run.
    public let passes: [(rotation: Rotation, result: DetectionResult)]
    /// Summed over the passes (plus the merge, counted as post-processing).
    public let timings: StageTimings
}
