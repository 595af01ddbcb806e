/// Instance masks as Ultralytics' `process_mask_native` makes them (`retina_masks=True`): mask
/// coefficients × prototypes gives logits at prototype resolution, upsampled bilinearly by 1, 2 or 4
/// (the least factor that crops the letterbox padding on whole pixels), cropped to the letterboxed
/// image, resized bilinearly to the original image (`scale_masks`), thresholded at 0 and cropped to
/// the box (`crop_mask`).
///
/// Only the pixels inside each box are computed: the output pixels of the box, the upsampled rows
/// and columns they read, and the prototype cells those read. The two bilinear stages stay separate,
/// as in Ultralytics (horizontal then vertical, `align_corners=False`), so the logits match its own.
package struct MaskAssembler: Sendable {
    package let maskCount: Int
    package let protoHeight: Int
    package let protoWidth: Int
    package let imageWidth: Int
    package let imageHeight: Int
    /// The first upsampling factor (1, 2 or 4).
    package let factor: Int
    /// The letterboxed image within the upsampled map: rows `top..<bottom`, columns `left..<right`.
    package let top: Int, bottom: Int, left: Int, right: Int
    /// When the upsampled map already has the image's size: no crop, no resize.
    let isIdentity: Bool

    /// - Parameters:
    ///   - protoHeight, protoWidth: the prototypes' size (a quarter of the model input's).
    ///   - imageWidth, imageHeight: the original image, the masks' size.
    package init(maskCount: Int, protoHeight: Int, protoWidth: Int, imageWidth: Int, imageHeight: Int) {
        precondition(maskCount > 0 && protoHeight > 0 && protoWidth > 0 && imageWidth > 0 && imageHeight > 0)
        self.maskCount = maskCount
        self.protoHeight = protoHeight
        self.protoWidth = protoWidth
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        let h = Double(imageHeight), w = Double(imageWidth)
        // process_mask_native: the padding of the input letterbox decides the first factor.
        let gain = min(Double(4 * protoHeight) / h, Double(4 * protoWidth) / w)
        let pad = (4 * protoHeight - max(pyRound(h * gain), 1)) | (4 * protoWidth - max(pyRound(w * gain), 1))
        factor = 4 / gcd(4, pad | (pad >> 1))
        // scale_masks(ratio_pad=None, padding=True) on the upsampled map.
        let upHeight = factor * protoHeight, upWidth = factor * protoWidth
        isIdentity = upHeight == imageHeight && upWidth == imageWidth
        let gain2 = min(Double(upHeight) / h, Double(upWidth) / w)
        let contentHeight = max(pyRound(h * gain2), 1), contentWidth = max(pyRound(w * gain2), 1)
        let padWidth = Double(upWidth - contentWidth) / 2, padHeight = Double(upHeight - contentHeight) / 2
        top = pyRound(padHeight - 0.1)
        left = pyRound(padWidth - 0.1)
        bottom = top + contentHeight
        right = left + contentWidth
    }

    /// One object's mask: `coefficients(k)` is its `k`-th mask coefficient; `box` its box in image
    /// pixels (Ultralytics keeps pixel column `x` when `x1 ≤ x < x2`, rows alike). `nil` when no
    /// pixel is set: Ultralytics drops such detections.
    ///
    /// - Parameter prototypes: `[maskCount, protoHeight, protoWidth]`, row-major.
    package func mask(prototypes: UnsafeBufferPointer<Float>, coefficients: (Int) -> Float, box: BoundingBox) -> InstanceMask? {
        precondition(prototypes.count == maskCount * protoHeight * protoWidth, "\(prototypes.count) prototype values")
        guard let columns = Self.pixelRange(box.x1, box.x2, limit: imageWidth),
              let rows = Self.pixelRange(box.y1, box.y2, limit: imageHeight) else { return nil }
        // Output pixel -> upsampled-map sample (stage 2), then upsampled -> prototype cell (stage 1).
        let stage2X = isIdentity ? Self.identitySamples(columns) : Self.samples(columns, outputSize: imageWidth, inputSize: right - left, offset: left)
        let stage2Y = isIdentity ? Self.identitySamples(rows) : Self.samples(rows, outputSize: imageHeight, inputSize: bottom - top, offset: top)
        let upColumns = Self.span(stage2X), upRows = Self.span(stage2Y)
        let stage1X = factor == 1 ? Self.identitySamples(upColumns) : Self.samples(upColumns, scale: 1 / Float(factor), inputSize: protoWidth)
        let stage1Y = factor == 1 ? Self.identitySamples(upRows) : Self.samples(upRows, scale: 1 / Float(factor), inputSize: protoHeight)
        let cellColumns = Self.span(stage1X), cellRows = Self.span(stage1Y)

        // Logits of the prototype cells the box reads: Σ_k c_k · P_k, row by row.
        let cellWidth = cellColumns.count
        var logits = [Float](repeating: 0, count: cellRows.count * cellWidth)
        logits.withUnsafeMutableBufferPointer { logits in
            for k in 0..<maskCount {
                let c = coefficients(k)
                for (r, row) in cellRows.enumerated() {
                    let source = (k * protoHeight + row) * protoWidth + cellColumns.lowerBound, target = r * cellWidth
                    for x in 0..<cellWidth { logits[target + x] += c * prototypes[source + x] }
                }
            }
        }
        let upsampled = Self.resample(logits, width: cellWidth, rowOffset: cellRows.lowerBound, columnOffset: cellColumns.lowerBound,
                                      rows: stage1Y, columns: stage1X)
        var bits = [UInt8](repeating: 0, count: rows.count * columns.count)
        var anySet = false
        bits.withUnsafeMutableBufferPointer { bits in
            Self.resample(upsampled, width: upColumns.count, rowOffset: upRows.lowerBound, columnOffset: upColumns.lowerBound,
                          rows: stage2Y, columns: stage2X) { index, row in
                for (x, value) in row.enumerated() where value > 0 {
                    bits[index + x] = 1
                    anySet = true
                }
            }
        }
        guard anySet else { return nil }
        return InstanceMask(imageWidth: imageWidth, imageHeight: imageHeight, regionX: columns.lowerBound, regionY: rows.lowerBound,
                            regionWidth: columns.count, regionHeight: rows.count, regionBits: bits)
    }

    /// One bilinear sample: `l0 · v[i0] + l1 · v[i1]`.
    package struct Sample {
        let i0: Int, i1: Int, l0: Float, l1: Float
    }

    /// The integer pixels `p` with `low ≤ p < high` inside `0..<limit`; `nil` if none.
    static func pixelRange(_ low: Float, _ high: Float, limit: Int) -> ClosedRange<Int>? {
        guard low.isFinite, high.isFinite else { return nil }
        let first = max(0, Int(min(low.rounded(.up), Float(limit)))), end = min(limit, Int(max(high.rounded(.up), 0)))
        return first < end ? first...(end - 1) : nil
    }

    /// The input indices a non-empty list of samples reads.
    static func span(_ samples: [Sample]) -> ClosedRange<Int> {
        let bounds = samples.reduce((low: Int.max, high: Int.min)) { (min($0.low, $1.i0), max($0.high, $1.i1)) }
        return bounds.low...max(bounds.low, bounds.high)
    }

    static func identitySamples(_ range: ClosedRange<Int>) -> [Sample] { range.map { Sample(i0: $0, i1: $0, l0: 1, l1: 0) } }

    /// Samples for outputs `range` of a resize from `inputSize` to `outputSize` (torch's scale
    /// `inputSize / outputSize` in float), indices shifted by `offset` (the crop's first row or column).
    static func samples(_ range: ClosedRange<Int>, outputSize: Int, inputSize: Int, offset: Int) -> [Sample] {
        samples(range, scale: Float(inputSize) / Float(outputSize), inputSize: inputSize).map {
            Sample(i0: $0.i0 + offset, i1: $0.i1 + offset, l0: $0.l0, l1: $0.l1)
        }
    }

    /// torch's `upsample_bilinear2d` (`align_corners=False`) source indices and weights for `range`.
    package static func samples(_ range: ClosedRange<Int>, scale: Float, inputSize: Int) -> [Sample] {
        range.map { output in
            let source = max(scale * (Float(output) + 0.5) - 0.5, 0)
            let i0 = min(Int(source), inputSize - 1)
            let l1 = min(max(source - Float(i0), 0), 1)
            return Sample(i0: i0, i1: i0 + (i0 < inputSize - 1 ? 1 : 0), l0: 1 - l1, l1: l1)
        }
    }

    /// Bilinear resampling of a `[rows, width]` block whose first cell is `(rowOffset, columnOffset)`:
    /// each output is `h0 · (w0 · a + w1 · b) + h1 · (w0 · c + w1 · d)`, as torch's kernel computes it,
    /// with the horizontal pass done once per input row read.
    package static func resample(_ input: [Float], width: Int, rowOffset: Int, columnOffset: Int, rows: [Sample], columns: [Sample]) -> [Float] {
        var output = [Float](repeating: 0, count: rows.count * columns.count)
        output.withUnsafeMutableBufferPointer { output in
            resample(input, width: width, rowOffset: rowOffset, columnOffset: columnOffset, rows: rows, columns: columns) { index, row in
                for (x, value) in row.enumerated() { output[index + x] = value }
            }
        }
        return output
    }

    /// The resampling above, handing each output row (and the index of its first value) to `body`.
    static func resample(_ input: [Float], width: Int, rowOffset: Int, columnOffset: Int, rows: [Sample], columns: [Sample],
                         _ body: (Int, UnsafeBufferPointer<Float>) -> Void) {
        guard !rows.isEmpty, !columns.isEmpty else { return }
        let read = span(rows)
        let outputWidth = columns.count
        // Horizontal pass: each input row read, at the output columns.
        var horizontal = [Float](repeating: 0, count: read.count * outputWidth)
        input.withUnsafeBufferPointer { input in
            columns.withUnsafeBufferPointer { columns in
                horizontal.withUnsafeMutableBufferPointer { horizontal in
                    for (r, row) in read.enumerated() {
                        let source = (row - rowOffset) * width - columnOffset, target = r * outputWidth
                        for (x, c) in columns.enumerated() {
                            horizontal[target + x] = c.l0 * input[source + c.i0] + c.l1 * input[source + c.i1]
                        }
                    }
                }
            }
        }
        // Vertical pass, one output row at a time.
        var line = [Float](repeating: 0, count: outputWidth)
        horizontal.withUnsafeBufferPointer { horizontal in
            line.withUnsafeMutableBufferPointer { line in
                for (y, r) in rows.enumerated() {
                    let top = (r.i0 - read.lowerBound) * outputWidth, bottom = (r.i1 - read.lowerBound) * outputWidth
                    for x in 0..<outputWidth { line[x] = r.l0 * horizontal[top + x] + r.l1 * horizontal[bottom + x] }
                    body(y * outputWidth, UnsafeBufferPointer(line))
                }
            }
        }
    }
}

/// Python 3's `round(x)`: nearest integer, ties to even.
private func pyRound(_ x: Double) -> Int { Int(x.rounded(.toNearestOrEven)) }

private func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? abs(a) : gcd(b, a % b) }
