import YOLODetect

extension Rotation {
    /// A detection of the turned image in the original `width × height` image: its box, keypoints
    /// and mask turned back.
    public func mapToOriginal(_ detection: Detection, originalWidth width: Int, originalHeight height: Int) -> Detection {
        var mapped = detection.mapped { mapToOriginal($0, originalWidth: width, originalHeight: height) }
        guard self != .degrees0 else { return mapped }
        mapped.keypoints = detection.keypoints?.map { point in
            let p = mapToOriginal(BoundingBox(x1: point.x, y1: point.y, x2: point.x, y2: point.y), originalWidth: width, originalHeight: height)
            return Keypoint(x: p.x1, y: p.y1, confidence: point.confidence)
        }
        mapped.mask = detection.mask.map { mapToOriginal($0, originalWidth: width, originalHeight: height) }
        return mapped
    }

    /// A mask of the turned image in the original `width × height` image.
    func mapToOriginal(_ mask: InstanceMask, originalWidth w: Int, originalHeight h: Int) -> InstanceMask {
        let region = mapToOriginal(BoundingBox(x1: Float(mask.regionX), y1: Float(mask.regionY),
                                               x2: Float(mask.regionX + mask.regionWidth), y2: Float(mask.regionY + mask.regionHeight)),
                                   originalWidth: w, originalHeight: h)
        let x0 = Int(region.x1), y0 = Int(region.y1), regionWidth = Int(region.x2) - x0, regionHeight = Int(region.y2) - y0
        var bits = [UInt8](repeating: 0, count: regionWidth * regionHeight)
        for y in 0..<regionHeight {
            for x in 0..<regionWidth {
                // Where original pixel (sx, sy) lands in the turned image (the inverse of `rotate`).
                let (sx, sy) = (x0 + x, y0 + y)
                let (rx, ry): (Int, Int) = switch self {
                case .degrees0: (sx, sy)
                case .degrees90: (h - 1 - sy, sx)
                case .degrees180: (w - 1 - sx, h - 1 - sy)
                case .degrees270: (sy, w - 1 - sx)
                }
                if mask.contains(x: rx, y: ry) { bits[y * regionWidth + x] = 1 }
            }
        }
        return InstanceMask(imageWidth: w, imageHeight: h, regionX: x0, regionY: y0, regionWidth: regionWidth, regionHeight: regionHeight,
                            regionBits: bits)
    }
}
