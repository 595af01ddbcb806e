import YOLOImage

/// The straightforward implementations that `BilinearResize`, `Preprocessor.canvas(for:)` and
/// `Preprocessor.writeCHW` had before they were made fast, kept verbatim as the naive twins the fast
/// paths must match byte for byte (ResizeEquivalenceTests). Scalar, bounds-checked where it was, and
/// matching OpenCV's `cv2.resize(INTER_LINEAR)` exactly (the fixtures say so).
enum ReferenceBilinearResize {
    /// A rectangle of the resized image: columns `x..<x + width`, rows `y..<y + height`.
    typealias Window = (x: Int, y: Int, width: Int, height: Int)

    /// `image` resized to `width × height`.
    static func resize(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        resize(image, width: width, height: height, window: (0, 0, width, height))
    }

    /// The `window` of `image` resized to `width × height`: the pixels a full resize followed by a
    /// crop gives, computed without the full-size image (which, for a thin strip scaled to cover a
    /// square, can be thousands of times larger than the window).
    static func resize(_ image: RGBImage, width: Int, height: Int, window: Window) -> RGBImage {
        precondition(width > 0 && height > 0, "resize target must be positive, got \(width)x\(height)")
        precondition(window.x >= 0 && window.y >= 0 && window.width > 0 && window.height > 0
                     && window.x + window.width <= width && window.y + window.height <= height,
                     "window \(window) outside the \(width)x\(height) target")
        if width == image.width && height == image.height && window == (0, 0, width, height) { return image }
        var out = [UInt8](repeating: 0, count: window.width * window.height * 3)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                resize(src: src, width: image.width, height: image.height, channels: 3,
                       dst: dst, width: width, height: height, window: window)
            }
        }
        return RGBImage(width: window.width, height: window.height, pixels: out)
    }

    /// Resizes interleaved 8-bit pixels with `channels` samples each.
    /// - Parameters:
    ///   - src: `srcWidth × srcHeight × channels` bytes, rows contiguous.
    ///   - dst: `window.width × window.height × channels` bytes (the whole `dstWidth × dstHeight`
    ///     image by default), written entirely.
    ///   - window: the part of the `dstWidth × dstHeight` result to compute.
    static func resize(src: UnsafeBufferPointer<UInt8>, width srcWidth: Int, height srcHeight: Int,
                              channels cn: Int, dst: UnsafeMutableBufferPointer<UInt8>,
                              width dstWidth: Int, height dstHeight: Int, window: Window? = nil) {
        let (x0, y0, windowWidth, windowHeight) = window ?? (0, 0, dstWidth, dstHeight)
        precondition(src.count >= srcWidth * srcHeight * cn && dst.count >= windowWidth * windowHeight * cn)
        guard let s = src.baseAddress, let d = dst.baseAddress else { return }
        if srcWidth == dstWidth && srcHeight == dstHeight {
            for y in 0..<windowHeight {
                (d + y * windowWidth * cn).update(from: s + ((y0 + y) * srcWidth + x0) * cn, count: windowWidth * cn)
            }
            return
        }
        // OpenCV: inv_scale = dsize / ssize, scale = 1 / inv_scale, in double.
        let scaleX = 1.0 / (Double(dstWidth) / Double(srcWidth))
        let scaleY = 1.0 / (Double(dstHeight) / Double(srcHeight))
        if isExactHalving(scaleX) && isExactHalving(scaleY) {
            halve(s, srcWidth: srcWidth, channels: cn, d, window: (x0, y0, windowWidth, windowHeight))
            return
        }

        // Horizontal taps: source element offset and two weights per destination element of the window.
        let rowLength = windowWidth * cn
        let xOffset = UnsafeMutablePointer<Int>.allocate(capacity: rowLength)
        let xWeight = UnsafeMutablePointer<Int32>.allocate(capacity: rowLength * 2)
        var row0 = UnsafeMutablePointer<Int32>.allocate(capacity: rowLength)
        var row1 = UnsafeMutablePointer<Int32>.allocate(capacity: rowLength)
        defer {
            xOffset.deallocate()
            xWeight.deallocate()
            row0.deallocate()
            row1.deallocate()
        }
        for column in 0..<windowWidth {
            let dx = x0 + column
            var fx = Float((Double(dx) + 0.5) * scaleX - 0.5)
            var sx = Int(fx.rounded(.down))
            fx -= Float(sx)
            if sx < 0 { fx = 0; sx = 0 }
            if sx + 1 >= srcWidth { fx = 0; sx = srcWidth - 1 }
            let (a0, a1) = weights(fx)
            for k in 0..<cn {
                xOffset[column * cn + k] = sx * cn + k
                xWeight[(column * cn + k) * 2] = a0
                xWeight[(column * cn + k) * 2 + 1] = a1
            }
        }

        // Horizontal pass of one source row, exact in 32 bits: [windowWidth*cn] <- [srcWidth*cn].
        let srcStride = srcWidth * cn
        func horizontal(_ sy: Int, into row: UnsafeMutablePointer<Int32>) {
            let line = s + sy * srcStride
            for i in 0..<rowLength {
                let o = xOffset[i]
                let a1 = xWeight[2 * i + 1]
                // a1 == 0 at clamped columns, where o + cn may be past the row.
                let right = a1 == 0 ? 0 : Int32(line[o + cn]) * a1
                row[i] = Int32(line[o]) * xWeight[2 * i] + right
            }
        }

        // Rows arrive in increasing order, so two cached rows cover every step.
        var key0 = -1, key1 = -1
        for row in 0..<windowHeight {
            let dy = y0 + row
            var fy = Float((Double(dy) + 0.5) * scaleY - 0.5)
            let sy = Int(fy.rounded(.down))
            fy -= Float(sy)
            let (b0, b1) = weights(fy)
            let y0 = min(max(sy, 0), srcHeight - 1)
            let y1 = min(max(sy + 1, 0), srcHeight - 1)
            if key0 != y0 {
                if key1 == y0 {
                    swap(&row0, &row1)
                    swap(&key0, &key1)
                } else {
                    horizontal(y0, into: row0)
                    key0 = y0
                }
            }
            if key1 != y1 {
                horizontal(y1, into: row1)
                key1 = y1
            }
            let out = d + row * rowLength
            for i in 0..<rowLength {
                let v = ((b0 &* (row0[i] >> 4)) >> 16) &+ ((b1 &* (row1[i] >> 4)) >> 16) &+ 2
                out[i] = UInt8(clamping: v >> 2)
            }
        }
    }

    /// OpenCV's fixed-point weights for fraction `f`: `saturate_cast<short>(c * 2048)` of
    /// `c = 1 - f` and `c = f`, rounding half to even in float.
    @inline(__always)
    static func weights(_ f: Float) -> (Int32, Int32) {
        (Int32(((1 - f) * 2048).rounded(.toNearestOrEven)), Int32((f * 2048).rounded(.toNearestOrEven)))
    }

    /// OpenCV's `is_area_fast && iscale == 2` test.
    static func isExactHalving(_ scale: Double) -> Bool {
        let i = scale.rounded(.toNearestOrEven)
        return abs(scale - i) < Double.ulpOfOne && i == 2
    }

    /// INTER_AREA for an exact 2× shrink: `(a + b + c + d + 2) >> 2` over each 2×2 block (of the window).
    static func halve(_ s: UnsafePointer<UInt8>, srcWidth: Int, channels cn: Int,
                      _ d: UnsafeMutablePointer<UInt8>, window: Window) {
        let srcStride = srcWidth * cn
        for row in 0..<window.height {
            let top = s + 2 * (window.y + row) * srcStride + 2 * window.x * cn, bottom = top + srcStride
            let out = d + row * window.width * cn
            for x in 0..<window.width {
                for k in 0..<cn {
                    let i = 2 * x * cn + k
                    let sum = Int(top[i]) + Int(top[i + cn]) + Int(bottom[i]) + Int(bottom[i + cn]) + 2
                    out[x * cn + k] = UInt8(truncatingIfNeeded: sum >> 2)
                }
            }
        }
    }
}

/// `Preprocessor.canvas(for:)` as it was: resize the whole image (or, in crop mode, the window),
/// fill a padded canvas, copy the visible part in.
func referenceCanvas(_ image: RGBImage, options: PreprocessOptions) -> RGBImage {
    let g = PreprocessGeometry(width: image.width, height: image.height, options: options)
    if g.mode == .crop {
        return ReferenceBilinearResize.resize(image, width: g.resizedWidth, height: g.resizedHeight,
                                              window: (g.cropLeft, g.cropTop, g.inputWidth, g.inputHeight))
    }
    let resized = ReferenceBilinearResize.resize(image, width: g.resizedWidth, height: g.resizedHeight)
    if g.mode == .stretch { return resized }
    let pad = options.padValue
    var canvas = RGBImage(width: g.inputWidth, height: g.inputHeight, fill: (pad, pad, pad))
    let srcX0 = g.cropLeft, srcY0 = g.cropTop
    let dstX0 = g.padLeft, dstY0 = g.padTop
    let copyW = min(g.resizedWidth - srcX0, g.inputWidth - dstX0)
    let copyH = min(g.resizedHeight - srcY0, g.inputHeight - dstY0)
    resized.pixels.withUnsafeBufferPointer { src in
        canvas.pixels.withUnsafeMutableBufferPointer { dst in
            guard let s = src.baseAddress, let d = dst.baseAddress, copyW > 0 else { return }
            for y in 0..<copyH {
                (d + ((dstY0 + y) * g.inputWidth + dstX0) * 3)
                    .update(from: s + ((srcY0 + y) * g.resizedWidth + srcX0) * 3, count: copyW * 3)
            }
        }
    }
    return canvas
}

/// `Preprocessor.writeCHW` as it was: one pixel at a time, `Float(x) / 255`.
func referenceCHW(_ canvas: RGBImage) -> [Float] {
    let plane = canvas.width * canvas.height
    var out = [Float](repeating: 0, count: 3 * plane)
    for i in 0..<plane {
        out[i] = Float(canvas.pixels[3 * i]) / 255
        out[plane + i] = Float(canvas.pixels[3 * i + 1]) / 255
        out[2 * plane + i] = Float(canvas.pixels[3 * i + 2]) / 255
    }
    return out
}
