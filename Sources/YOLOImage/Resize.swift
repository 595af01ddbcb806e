import YOLOKernels

/// Bilinear resize that reproduces OpenCV's `cv::resize(..., INTER_LINEAR)` for 8-bit images
/// bit for bit (verified against opencv-python 5.0 fixtures).
///
/// OpenCV's 8-bit path is fixed-point: per destination column it takes a source index and two
/// 11-bit weights (`round_half_even((1 - f) * 2048)`, `round_half_even(f * 2048)` of a *float*
/// fraction); the horizontal pass makes exact 32-bit sums `r`, and the vertical pass combines two
/// such rows as `((b0 * (r0 >> 4)) >> 16 + (b1 * (r1 >> 4)) >> 16 + 2) >> 2` (its SIMD formula,
/// which the scalar tail repeats). Columns are clamped by zeroing the weight; rows are clamped by
/// reading the edge row with the unclamped weights. An exact 2× shrink on both axes is done by
/// OpenCV as INTER_AREA, a rounded 2×2 mean, and so here.
///
/// The same integer arithmetic, arranged for speed: the taps are computed once per column, each
/// source row's horizontal pass once (kept as `r >> 4` in 16 bits), the vertical pass is a loop
/// the compiler vectorizes, and the result can be written straight into a larger canvas. The two
/// passes run through `ImageKernels` (`resizeHorizontalPass`, `resizeVerticalPass`): compiled here
/// for any CPU, or in a kernel set for the CPU's instruction set.
package enum BilinearResize {
    /// A rectangle of the resized image: columns `x..<x + width`, rows `y..<y + height`.
    package typealias Window = (x: Int, y: Int, width: Int, height: Int)

    /// `image` resized to `width × height`.
    package static func resize(_ image: RGBImage, width: Int, height: Int, kernels: ImageKernels = .portable) -> RGBImage {
        resize(image, width: width, height: height, window: (0, 0, width, height), kernels: kernels)
    }

    /// The `window` of `image` resized to `width × height`: the pixels a full resize followed by a
    /// crop gives, computed without the full-size image (which, for a thin strip scaled to cover a
    /// square, can be thousands of times larger than the window).
    package static func resize(_ image: RGBImage, width: Int, height: Int, window: Window, kernels: ImageKernels = .portable) -> RGBImage {
        precondition(width > 0 && height > 0, "resize target must be positive, got \(width)x\(height)")
        precondition(window.x >= 0 && window.y >= 0 && window.width > 0 && window.height > 0
                     && window.x + window.width <= width && window.y + window.height <= height,
                     "window \(window) outside the \(width)x\(height) target")
        if width == image.width && height == image.height && window == (0, 0, width, height) { return image }
        let count = window.width * window.height * 3
        let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            image.pixels.withUnsafeBufferPointer { src in
                // Both are non-empty: the sizes were checked positive above.
                guard let source = src.baseAddress, let destination = buffer.baseAddress else { return }
                resize(source, width: image.width, height: image.height, channels: 3,
                       into: destination, rowStride: window.width * 3, width: width, height: height, window: window, kernels: kernels)
            }
            initialized = count
        }
        return RGBImage(width: window.width, height: window.height, pixels: out)
    }

    /// Resizes interleaved 8-bit pixels with `channels` samples each.
    /// - Parameters:
    ///   - src: `srcWidth × srcHeight × channels` bytes, rows contiguous.
    ///   - dst: `window.width × window.height × channels` bytes (the whole `dstWidth × dstHeight`
    ///     image by default), written entirely.
    ///   - window: the part of the `dstWidth × dstHeight` result to compute.
    package static func resize(src: UnsafeBufferPointer<UInt8>, width srcWidth: Int, height srcHeight: Int,
                              channels cn: Int, dst: UnsafeMutableBufferPointer<UInt8>,
                              width dstWidth: Int, height dstHeight: Int, window: Window? = nil) {
        let window = window ?? (0, 0, dstWidth, dstHeight)
        precondition(src.count >= srcWidth * srcHeight * cn && dst.count >= window.width * window.height * cn)
        guard let s = src.baseAddress, let d = dst.baseAddress else { return }
        resize(s, width: srcWidth, height: srcHeight, channels: cn, into: d, rowStride: window.width * cn,
               width: dstWidth, height: dstHeight, window: window)
    }

    /// Resizes contiguous rows `s` (see `resize(rows:...)`).
    static func resize(_ s: UnsafePointer<UInt8>, width srcWidth: Int, height srcHeight: Int, channels cn: Int,
                       into d: UnsafeMutablePointer<UInt8>, rowStride: Int,
                       width dstWidth: Int, height dstHeight: Int, window: Window, kernels: ImageKernels = .portable) {
        let srcStride = srcWidth * cn
        resize(rows: { y, _ in s + y * srcStride }, width: srcWidth, height: srcHeight, channels: cn,
               into: d, rowStride: rowStride, width: dstWidth, height: dstHeight, window: window, kernels: kernels)
    }

    /// The source image of a resize, row by row: `rows(y, slot)` is row `y`'s `width × channels`
    /// bytes. A row stays valid until the next request for the same `slot` (0 or 1), so a source
    /// can convert rows into two scratch buffers instead of holding a converted copy of the image.
    package typealias SourceRows = (_ y: Int, _ slot: Int) -> UnsafePointer<UInt8>

    /// The resize itself: writes the `window` of the `dstWidth × dstHeight` result to `d`, its rows
    /// `rowStride` bytes apart (so that it can land inside a larger canvas). Each source row is
    /// requested at most once per use, in increasing order.
    package static func resize(rows: SourceRows, width srcWidth: Int, height srcHeight: Int, channels cn: Int,
                               into d: UnsafeMutablePointer<UInt8>, rowStride: Int,
                               width dstWidth: Int, height dstHeight: Int, window: Window, kernels: ImageKernels = .portable) {
        let (x0, y0, windowWidth, windowHeight) = window
        let rowLength = windowWidth * cn
        if srcWidth == dstWidth && srcHeight == dstHeight {
            for y in 0..<windowHeight {
                (d + y * rowStride).update(from: rows(y0 + y, 0) + x0 * cn, count: rowLength)
            }
            return
        }
        // OpenCV: inv_scale = dsize / ssize, scale = 1 / inv_scale, in double.
        let scaleX = 1.0 / (Double(dstWidth) / Double(srcWidth))
        let scaleY = 1.0 / (Double(dstHeight) / Double(srcHeight))
        if isExactHalving(scaleX) && isExactHalving(scaleY) {
            halve(rows, channels: cn, d, rowStride: rowStride, window: window, kernels: kernels)
            return
        }

        // Horizontal taps per sample of a window row (column × channel): the left tap's byte offset
        // in the source row and the two weights.
        precondition(srcWidth <= Int(Int32.max) / cn, "a source row of \(srcWidth) × \(cn) bytes")
        let tapOffsets = UnsafeMutablePointer<Int32>.allocate(capacity: rowLength)
        let tapWeights0 = UnsafeMutablePointer<Int16>.allocate(capacity: rowLength)
        let tapWeights1 = UnsafeMutablePointer<Int16>.allocate(capacity: rowLength)
        let tapScratch = UnsafeMutablePointer<UInt32>.allocate(capacity: rowLength)
        // Horizontal sums kept as `sum >> 4`, all the vertical pass uses (at most 255 * 2049 >> 4: an Int16).
        var row0 = UnsafeMutablePointer<Int16>.allocate(capacity: rowLength)
        var row1 = UnsafeMutablePointer<Int16>.allocate(capacity: rowLength)
        defer {
            tapOffsets.deallocate()
            tapWeights0.deallocate()
            tapWeights1.deallocate()
            tapScratch.deallocate()
            row0.deallocate()
            row1.deallocate()
        }
        // Columns clamped to the last source column (weight 0 on a right tap past the row) form a
        // suffix, since sx grows with dx: the samples before the first one read both taps untested.
        var twoTapColumns = windowWidth
        for column in 0..<windowWidth {
            let dx = x0 + column
            var fx = Float((Double(dx) + 0.5) * scaleX - 0.5)
            var sx = Int(fx.rounded(.down))
            fx -= Float(sx)
            if sx < 0 { fx = 0; sx = 0 }
            if sx + 1 >= srcWidth {
                fx = 0
                sx = srcWidth - 1
                twoTapColumns = min(twoTapColumns, column)
            }
            let (a0, a1) = weights(fx)
            for k in 0..<cn {
                tapOffsets[column * cn + k] = Int32(sx * cn + k)
                tapWeights0[column * cn + k] = Int16(a0)
                tapWeights1[column * cn + k] = Int16(a1)
            }
        }
        let taps = HorizontalTaps(offsets: tapOffsets, weights0: tapWeights0, weights1: tapWeights1,
                                  channels: cn, twoTapSamples: twoTapColumns * cn, samples: rowLength, scratch: tapScratch)

        // Horizontal pass of one source row: [windowWidth * cn] <- [srcWidth * cn].
        func horizontal(_ sy: Int, into row: UnsafeMutablePointer<Int16>) {
            kernels.horizontalPass(rows(sy, 0), taps, row)
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
            kernels.verticalPass(row0, row1, Int16(truncatingIfNeeded: b0), Int16(truncatingIfNeeded: b1), rowLength, d + row * rowStride)
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

    /// INTER_AREA for an exact 2× shrink: `(a + b + c + d + 2) >> 2` over each 2×2 block (of the
    /// window), one destination row at a time by `kernels.halvingPass`.
    static func halve(_ rows: SourceRows, channels cn: Int,
                      _ d: UnsafeMutablePointer<UInt8>, rowStride: Int, window: Window, kernels: ImageKernels) {
        let sums = UnsafeMutablePointer<UInt16>.allocate(capacity: 2 * window.width * cn)
        defer { sums.deallocate() }
        for row in 0..<window.height {
            let sy = 2 * (window.y + row)
            let top = rows(sy, 0) + 2 * window.x * cn, bottom = rows(sy + 1, 1) + 2 * window.x * cn
            kernels.halvingPass(top, bottom, cn, window.width, sums, d + row * rowStride)
        }
    }
}
