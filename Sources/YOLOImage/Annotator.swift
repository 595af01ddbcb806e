import FoundationEssentials
import Glibc
import YOLOPlatform

/// One labelled box to draw, in the image's own pixel coordinates.
package struct BoxAnnotation: Sendable, Equatable {
    package var x1: Float
    package var y1: Float
    package var x2: Float
    package var y2: Float
    /// Picks the colour (Ultralytics' palette, cycling every 20 classes).
    package var classId: Int
    /// The label, e.g. `person 0.87`; empty for no label.
    package var text: String

    package init(x1: Float, y1: Float, x2: Float, y2: Float, classId: Int, text: String) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        self.classId = classId
        self.text = text
    }

    /// A box labelled `"<name> <confidence to 2 decimals>"`, as Ultralytics labels it.
    package init(x1: Float, y1: Float, x2: Float, y2: Float, classId: Int, name: String, confidence: Float) {
        self.init(x1: x1, y1: y1, x2: x2, y2: y2, classId: classId,
                  text: "\(name) \(String(cFormat: "%.2f", Double(confidence)))")
    }
}

/// Draws detections the way Ultralytics' `Annotator` does, in spirit: a box outline in the
/// class's palette colour and the label on a filled tab above the box (inside it when there is
/// no room above), with black or white text chosen per colour. Text uses a built-in 5×7 font.
package enum Annotator {
    /// Ultralytics' 20-colour palette (`ultralytics.utils.plotting.Colors`), RGB.
    package static let palette: [(UInt8, UInt8, UInt8)] = [
        (0x04, 0x2A, 0xFF), (0x0B, 0xDB, 0xEB), (0xF3, 0xF3, 0xF3), (0x00, 0xDF, 0xB7), (0x11, 0x1F, 0x68),
        (0xFF, 0x6F, 0xDD), (0xFF, 0x44, 0x4F), (0xCC, 0xED, 0x00), (0x00, 0xF3, 0x44), (0xBD, 0x00, 0xFF),
        (0x00, 0xB4, 0xFF), (0xDD, 0x00, 0xBA), (0x00, 0xFF, 0xFF), (0x26, 0xC0, 0x00), (0x01, 0xFF, 0xB3),
        (0x7D, 0x24, 0xFF), (0x7B, 0x00, 0x68), (0xFF, 0x1B, 0x6C), (0xFC, 0x6D, 0x2F), (0xA2, 0xFF, 0x0B),
    ]
    /// Palette entries Ultralytics labels with dark text (its `dark_colors`, text RGB (17, 31, 104)); the rest get white.
    static let darkText: Set<Int> = [1, 2, 3, 5, 7, 8, 12, 14, 19]

    /// The colour for a class id.
    package static func color(forClass classId: Int) -> (UInt8, UInt8, UInt8) {
        palette[((classId % palette.count) + palette.count) % palette.count]
    }

    /// Ultralytics' default line width: `max(round((h + w + 3) / 2 * 0.003), 2)`.
    package static func defaultLineWidth(width: Int, height: Int) -> Int {
        max(pyRound(Double(height + width + 3) / 2 * 0.003), 2)
    }

    /// `image` with `boxes` drawn on it.
    /// - Parameter lineWidth: outline width in pixels; `nil` for `defaultLineWidth`.
    package static func annotate(_ image: RGBImage, boxes: [BoxAnnotation], lineWidth: Int? = nil) -> RGBImage {
        var canvas = image
        let lw = max(lineWidth ?? defaultLineWidth(width: image.width, height: image.height), 1)
        let scale = max(lw - 1, 1)
        for box in boxes {
            let color = color(forClass: box.classId)
            let x1 = Int(box.x1), y1 = Int(box.y1), x2 = Int(box.x2), y2 = Int(box.y2)  // int(), like Ultralytics
            let lo = lw / 2, hi = lw - lw / 2  // band [edge - lo, edge + hi)
            fill(&canvas, x0: x1 - lo, y0: y1 - lo, x1: x2 + hi, y1: y1 + hi, color)  // top
            fill(&canvas, x0: x1 - lo, y0: y2 - lo, x1: x2 + hi, y1: y2 + hi, color)  // bottom
            fill(&canvas, x0: x1 - lo, y0: y1 - lo, x1: x1 + hi, y1: y2 + hi, color)  // left
            fill(&canvas, x0: x2 - lo, y0: y1 - lo, x1: x2 + hi, y1: y2 + hi, color)  // right
            if !box.text.isEmpty {
                drawLabel(&canvas, text: box.text, x: x1 - lo, y: y1 - lo, scale: scale, background: color,
                          foreground: darkText.contains(((box.classId % 20) + 20) % 20) ? (17, 31, 104) : (255, 255, 255))
            }
        }
        return canvas
    }

    /// Pixel size of `text` at `scale` (without the tab's padding).
    static func textSize(_ text: String, scale: Int) -> (width: Int, height: Int) {
        let n = text.unicodeScalars.count
        return (n == 0 ? 0 : (n * BitmapFont.advance - 1) * scale, BitmapFont.glyphHeight * scale)
    }

    /// A filled tab with `text`, its bottom-left at (`x`, `y`) if it fits above, else below `y`.
    static func drawLabel(_ canvas: inout RGBImage, text: String, x: Int, y: Int, scale: Int,
                          background: (UInt8, UInt8, UInt8), foreground: (UInt8, UInt8, UInt8)) {
        let (tw, th) = textSize(text, scale: scale)
        let pad = scale + 1
        let w = tw + 2 * pad, h = th + 2 * pad
        let top = y >= h ? y - h : max(y, 0)
        let left = max(min(x, canvas.width - w), 0)  // keep the tab on the image when it can be
        fill(&canvas, x0: left, y0: top, x1: left + w, y1: top + h, background)
        var penX = left + pad
        for scalar in text.unicodeScalars {
            let rows = BitmapFont.rows(for: scalar) ?? BitmapFont.missing[...]
            for (r, bits) in rows.enumerated() {
                for c in 0..<BitmapFont.glyphWidth where bits & (0x10 >> c) != 0 {
                    let px = penX + c * scale, py = top + pad + r * scale
                    fill(&canvas, x0: px, y0: py, x1: px + scale, y1: py + scale, foreground)
                }
            }
            penX += BitmapFont.advance * scale
        }
    }

    /// Fills the rectangle [x0, x1) × [y0, y1), clipped to the image.
    static func fill(_ canvas: inout RGBImage, x0: Int, y0: Int, x1: Int, y1: Int, _ color: (UInt8, UInt8, UInt8)) {
        let xa = max(x0, 0), xb = min(x1, canvas.width)
        let ya = max(y0, 0), yb = min(y1, canvas.height)
        guard xa < xb, ya < yb else { return }
        let width = canvas.width
        canvas.pixels.withUnsafeMutableBufferPointer { p in
            for yy in ya..<yb {
                var i = (yy * width + xa) * 3
                for _ in xa..<xb {
                    p[i] = color.0
                    p[i + 1] = color.1
                    p[i + 2] = color.2
                    i += 3
                }
            }
        }
    }
}
