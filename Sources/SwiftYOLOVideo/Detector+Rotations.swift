import SwiftYOLO
import YOLODetect
import YOLOImage
import YOLORecipes

extension Detector {
    /// Detects in `image` turned by each of `rotations`, maps every box back to `image`'s
    /// orientation and merges the passes with NMS (the detector's IoU threshold, agnostic setting
    /// and detection limit), so that objects lying sideways are found as well as upright ones.
    ///
    /// With `[.degrees0]` this is `run(_:)`.
    /// - Precondition: `rotations` is not empty.
    public func run(_ image: RGBImage, rotations: [Rotation], timings: StageTimings = StageTimings()) throws -> RotationPassResult {
        precondition(!rotations.isEmpty, "Detector.run(_:rotations:) needs at least one rotation")
        var total = timings
        var passes: [(rotation: Rotation, result: DetectionResult)] = []
        for rotation in rotations {
            var turnTime = Duration.zero
            let turned = measure(&turnTime) { rotation.rotate(image) }
            let result = try run(turned)
            var passTimings = result.timings
            passTimings.preprocess += turnTime  // turning the image is part of preparing it
            let mapped = result.detections.map { rotation.mapToOriginal($0, originalWidth: image.width, originalHeight: image.height) }
            passes.append((rotation, DetectionResult(detections: mapped, imageWidth: image.width, imageHeight: image.height,
                                                     inputWidth: result.inputWidth, inputHeight: result.inputHeight,
                                                     timings: passTimings)))
            total.preprocess += passTimings.preprocess
            total.inference += passTimings.inference
            total.postprocess += passTimings.postprocess
        }
        let merged: [RotatedDetection]
        if passes.count == 1, let only = passes.first {
            merged = only.result.detections.map { RotatedDetection(detection: $0, rotation: only.rotation) }
        } else {
            merged = measure(&total.postprocess) {
                RotationMerge.merge(passes.map { ($0.rotation, $0.result.detections) }, iouThreshold: options.iouThreshold,
                                    agnostic: options.agnostic, maxDetections: options.maxDetections)
            }
        }
        return RotationPassResult(detections: merged, imageWidth: image.width, imageHeight: image.height, passes: passes, timings: total)
    }

    /// Decodes the image file at `path` and runs `run(_:rotations:)` on it.
    public func run(imageAt path: String, rotations: [Rotation]) throws -> RotationPassResult {
        var timings = StageTimings()
        let image = try measure(&timings.decode) { try decoder.decode(contentsOf: path) }
        return try run(image, rotations: rotations, timings: timings)
    }
}
