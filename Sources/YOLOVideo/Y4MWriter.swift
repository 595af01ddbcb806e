import YOLOImage

/// Builds a YUV4MPEG2 stream in memory from RGB images: BT.601 limited range, 4:2:0 (each chroma
/// sample the mean of its 2×2 block) or 4:4:4. For making test streams and clips in code; the
/// conversion is the textbook one (`Y = 16 + 0.257 R + 0.504 G + 0.098 B`, …), rounded.
package struct Y4MWriter: Sendable {
    package let header: Y4MHeader
    /// The stream so far: the header line, then each frame added.
    package private(set) var bytes: [UInt8]

    /// Starts a stream of `width × height` frames.
    package init(width: Int, height: Int, frameRateNumerator: Int = 25, frameRateDenominator: Int = 1, chroma: Y4MChroma = .c420jpeg) {
        header = Y4MHeader(width: width, height: height, frameRateNumerator: frameRateNumerator,
                           frameRateDenominator: frameRateDenominator, chroma: chroma, range: .limited)
        bytes = Array((header.line + "\n").utf8)
    }

    /// Appends one frame.
    /// - Precondition: `image` has the stream's size.
    package mutating func append(_ image: RGBImage) {
        precondition(image.width == header.width && image.height == header.height,
                     "Y4MWriter: a \(image.width)×\(image.height) frame in a \(header.width)×\(header.height) stream")
        bytes += Array("FRAME\n".utf8)
        bytes += Self.planes(of: image, chroma: header.chroma)
    }

    /// The Y, Cb and Cr planes of `image`.
    package static func planes(of image: RGBImage, chroma: Y4MChroma) -> [UInt8] {
        let w = image.width, h = image.height, p = image.pixels
        func rgb(_ x: Int, _ y: Int) -> (Double, Double, Double) {
            let i = (y * w + x) * 3
            return (Double(p[i]), Double(p[i + 1]), Double(p[i + 2]))
        }
        func code(_ value: Double) -> UInt8 { UInt8(min(max(value.rounded(), 0), 255)) }
        var luma = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let (r, g, b) = rgb(x, y)
                luma[y * w + x] = code(16 + 0.256788 * r + 0.504129 * g + 0.097906 * b)
            }
        }
        let c = chroma.chromaSize(width: w, height: h)
        let step = chroma.isSubsampled ? 2 : 1
        var cb = [UInt8](repeating: 0, count: c.width * c.height), cr = cb
        for cy in 0..<c.height {
            for cx in 0..<c.width {
                var (r, g, b, n) = (0.0, 0.0, 0.0, 0.0)
                for y in (cy * step)..<min(cy * step + step, h) {
                    for x in (cx * step)..<min(cx * step + step, w) {
                        let s = rgb(x, y)
                        (r, g, b, n) = (r + s.0, g + s.1, b + s.2, n + 1)
                    }
                }
                (r, g, b) = (r / n, g / n, b / n)
                cb[cy * c.width + cx] = code(128 - 0.148223 * r - 0.290993 * g + 0.439216 * b)
                cr[cy * c.width + cx] = code(128 + 0.439216 * r - 0.367788 * g - 0.071427 * b)
            }
        }
        return luma + cb + cr
    }
}
