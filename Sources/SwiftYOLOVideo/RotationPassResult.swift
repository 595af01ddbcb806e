import SwiftYOLO
import YOLORecipes

/// What a rotation pass over one image gave: the merged detections, each with the rotation that
/// found it (boxes in the original image's pixels), and the time of all passes together.
package struct RotationPassResult: Sendable {
    package let detections: [RotatedDetection]
    package let imageWidth: Int
    package let imageHeight: Int
    /// Each pass's own result (boxes already mapped to the original image), in the order run.
    package let passes: [(rotation: Rotation, result: DetectionResult)]
    /// Summed over the passes (plus the merge, counted as post-processing).
    package let timings: StageTimings
}
