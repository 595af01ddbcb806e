import SwiftYOLO
import YOLOImage

/// `--save`'s picture for any task, in Ultralytics' order: masks at half opacity, then the boxes and
/// labels, then the pose skeletons on top.
enum TaskDrawing {
    static func annotate(_ image: RGBImage, detections: [Detection], boxes: [BoxAnnotation]) -> RGBImage {
        var canvas = image
        for detection in detections {
            guard let mask = detection.mask, mask.imageWidth == image.width, mask.imageHeight == image.height else { continue }
            Annotator.overlayMask(&canvas, x: mask.regionX, y: mask.regionY, width: mask.regionWidth, height: mask.regionHeight,
                                  bits: mask.regionBits, color: Annotator.color(forClass: detection.classId))
        }
        canvas = Annotator.annotate(canvas, boxes: boxes)
        let lineWidth = Annotator.defaultLineWidth(width: image.width, height: image.height)
        for detection in detections {
            guard let keypoints = detection.keypoints else { continue }
            Annotator.drawPose(&canvas, keypoints: keypoints.map { ($0.x, $0.y, $0.confidence) }, lineWidth: lineWidth)
        }
        return canvas
    }
}
