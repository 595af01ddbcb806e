/// Segmentation masks and pose skeletons drawn as Ultralytics' `Annotator.masks` and `Annotator.kpts`
/// draw them: each mask blended at half opacity in its class's colour, keypoints as dots and limbs
/// as lines in Ultralytics' pose palette, both skipped below confidence 0.5.
extension Annotator {
    /// Ultralytics' `pose_palette`, converted from the BGR it draws with to RGB.
    package static let posePalette: [(UInt8, UInt8, UInt8)] = [
        (0, 128, 255), (51, 153, 255), (102, 178, 255), (0, 230, 230), (255, 153, 255), (255, 204, 153), (255, 102, 255),
        (255, 51, 255), (255, 178, 102), (255, 153, 51), (153, 153, 255), (102, 102, 255), (51, 51, 255), (153, 255, 153),
        (102, 255, 102), (51, 255, 51), (0, 255, 0), (255, 0, 0), (0, 0, 255), (255, 255, 255),
    ]
    /// The COCO person skeleton as pairs of keypoint indices (Ultralytics' `skeleton`, 0-based).
    package static let cocoSkeleton: [(Int, Int)] = [
        (15, 13), (13, 11), (16, 14), (14, 12), (11, 12), (5, 11), (6, 12), (5, 6), (5, 7), (6, 8), (7, 9), (8, 10),
        (1, 2), (0, 1), (0, 2), (1, 3), (2, 4), (3, 5), (4, 6),
    ]
    package static let limbColors = [9, 9, 9, 9, 7, 7, 7, 0, 0, 0, 0, 0, 16, 16, 16, 16, 16, 16, 16]
    static let keypointColors = [16, 16, 16, 16, 16, 0, 0, 0, 0, 0, 0, 9, 9, 9, 9, 9, 9]
    /// Keypoints below this confidence are not drawn (Ultralytics' `conf_thres`).
    package static let keypointThreshold: Float = 0.5

    /// Blends `color` at `alpha` over the pixels whose `bits` are nonzero; `bits` covers the region
    /// `(x, y, width, height)` of the image, row-major.
    package static func overlayMask(_ canvas: inout RGBImage, x: Int, y: Int, width: Int, height: Int, bits: [UInt8],
                                    color: (UInt8, UInt8, UInt8), alpha: Float = 0.5) {
        precondition(bits.count == width * height, "\(bits.count) mask values for a \(width)×\(height) region")
        let imageWidth = canvas.width, imageHeight = canvas.height
        let tint = [Float(color.0), Float(color.1), Float(color.2)].map { $0 * alpha }
        canvas.pixels.withUnsafeMutableBufferPointer { p in
            for row in 0..<height where (0..<imageHeight).contains(y + row) {
                for column in 0..<width where bits[row * width + column] != 0 && (0..<imageWidth).contains(x + column) {
                    let i = ((y + row) * imageWidth + x + column) * 3
                    for c in 0..<3 { p[i + c] = UInt8(min(255, (Float(p[i + c]) * (1 - alpha) + tint[c]).rounded())) }
                }
            }
        }
    }

    /// Draws one pose: the limbs of `skeleton` between keypoints that are both confident, then a dot
    /// per confident keypoint. Colours follow Ultralytics' for the 17 COCO keypoints; other models get
    /// dots in one colour and no limbs.
    /// - Parameter lineWidth: Ultralytics' line width for the image (`defaultLineWidth`).
    package static func drawPose(_ canvas: inout RGBImage, keypoints: [(x: Float, y: Float, confidence: Float)], lineWidth: Int) {
        let isCOCO = keypoints.count == 17
        let radius = max(lineWidth, 2)  // Ultralytics: radius 5 at line width ~2-3, scaled with the image
        if isCOCO {
            for (limb, (a, b)) in cocoSkeleton.enumerated() {
                let p = keypoints[a], q = keypoints[b]
                guard p.confidence >= keypointThreshold, q.confidence >= keypointThreshold else { continue }
                drawLine(&canvas, from: (p.x, p.y), to: (q.x, q.y), width: max(lineWidth, 1), color: posePalette[limbColors[limb]])
            }
        }
        for (k, point) in keypoints.enumerated() where point.confidence >= keypointThreshold {
            fillDisc(&canvas, x: point.x, y: point.y, radius: Float(radius), color: posePalette[isCOCO ? keypointColors[k] : 16])
        }
    }

    /// A line `width` pixels thick: discs stamped along it at every pixel step.
    static func drawLine(_ canvas: inout RGBImage, from a: (Float, Float), to b: (Float, Float), width: Int, color: (UInt8, UInt8, UInt8)) {
        let steps = max(Int(max(abs(b.0 - a.0), abs(b.1 - a.1)).rounded(.up)), 1)
        guard steps < 1 << 16 else { return }
        for s in 0...steps {
            let t = Float(s) / Float(steps)
            fillDisc(&canvas, x: a.0 + (b.0 - a.0) * t, y: a.1 + (b.1 - a.1) * t, radius: Float(width) / 2, color: color)
        }
    }

    /// A filled disc centred on `(x, y)`, clipped to the image.
    static func fillDisc(_ canvas: inout RGBImage, x: Float, y: Float, radius: Float, color: (UInt8, UInt8, UInt8)) {
        guard x.isFinite, y.isFinite, radius.isFinite else { return }
        let r = max(radius, 0.5), width = canvas.width
        let x0 = max(Int((x - r).rounded(.down)), 0), x1 = min(Int((x + r).rounded(.up)), canvas.width - 1)
        let y0 = max(Int((y - r).rounded(.down)), 0), y1 = min(Int((y + r).rounded(.up)), canvas.height - 1)
        guard x0 <= x1, y0 <= y1 else { return }
        canvas.pixels.withUnsafeMutableBufferPointer { p in
            for py in y0...y1 {
                for px in x0...x1 {
                    let dx = Float(px) + 0.5 - x, dy = Float(py) + 0.5 - y
                    guard dx * dx + dy * dy <= r * r else { continue }
                    let i = (py * width + px) * 3
                    (p[i], p[i + 1], p[i + 2]) = color
                }
            }
        }
    }
}
