import YOLODetect
import YOLOImage
import YOLOModel

/// Post-processing parametrized by the head's layout: NMS over the box and class rows (or the
/// end-to-end head's top-k selection), then what the
/// task adds to each kept detection from its extra rows: Segment's mask (coefficients ×
/// prototypes, `MaskAssembler`), Pose's keypoints (mapped to the image as `scale_coords` does).
/// Boxes and keypoints end in original-image pixels.
package struct TaskPostprocessing {
    let postprocessor: Postprocessor
    let classCount: Int
    let extras: HeadExtras
    let geometry: PreprocessGeometry
    /// For the one-to-one head's output (end-to-end inference): its top-k selection instead of NMS.
    let endToEndSelection: EndToEndSelection?

    package init(postprocessor: Postprocessor, classCount: Int, extras: HeadExtras, geometry: PreprocessGeometry,
                 endToEndSelection: EndToEndSelection? = nil) {
        self.postprocessor = postprocessor
        self.classCount = classCount
        self.extras = extras
        self.geometry = geometry
        self.endToEndSelection = endToEndSelection
    }

    package func detections(_ output: HeadOutput) throws -> [Detection] {
        let head = output.predictions
        let anchorCount = head.shape[2]
        let selected = if let endToEndSelection {
            try endToEndSelection.selections(head: UnsafeBufferPointer(head.buffer), classCount: classCount,
                                             extraRows: extras.rowCount, anchorCount: anchorCount)
        } else {
            try postprocessor.selections(head: UnsafeBufferPointer(head.buffer), classCount: classCount,
                                         extraRows: extras.rowCount, anchorCount: anchorCount)
        }
        let firstExtraRow = 4 + classCount
        /// The anchor's value in extra row `row`.
        func extra(_ row: Int, _ anchor: Int) -> Float { head.data[(firstExtraRow + row) * anchorCount + anchor] }
        let assembler = maskAssembler(output.prototypes)
        return selected.compactMap { detection, anchor in
            var detection = detection.mapped { box in
                let mapped = geometry.mapToOriginal(x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2)
                return BoundingBox(x1: mapped.x1, y1: mapped.y1, x2: mapped.x2, y2: mapped.y2)
            }
            switch extras {
            case .none:
                break
            case .maskCoefficients:
                guard let (assembler, prototypes) = assembler,
                      let mask = assembler.mask(prototypes: UnsafeBufferPointer(prototypes.buffer), coefficients: { extra($0, anchor) },
                                                box: detection.box)
                else { return nil }  // Ultralytics keeps only detections whose mask has a pixel
                detection.mask = mask
            case let .keypoints(count, dimensions):
                detection.keypoints = (0..<count).map { k in
                    let x = extra(k * dimensions, anchor), y = extra(k * dimensions + 1, anchor)
                    let mapped = geometry.mapToOriginal(x1: x, y1: y, x2: x, y2: y)
                    return Keypoint(x: mapped.x1, y: mapped.y1, confidence: dimensions == 3 ? extra(k * dimensions + 2, anchor) : 1)
                }
            }
            return detection
        }
    }

    private func maskAssembler(_ prototypes: Tensor?) -> (MaskAssembler, Tensor)? {
        guard case .maskCoefficients = extras, let prototypes, prototypes.rank == 4 else { return nil }
        let assembler = MaskAssembler(maskCount: prototypes.shape[1], protoHeight: prototypes.shape[2], protoWidth: prototypes.shape[3],
                                      imageWidth: geometry.originalWidth, imageHeight: geometry.originalHeight)
        return (assembler, prototypes)
    }
}
