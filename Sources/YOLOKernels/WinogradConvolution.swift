/// A 3×3, stride-1, padding-1 convolution by Winograd's minimal filtering F(2×2, 3×3) (Lavin & Gray,
/// 2015): each 2×2 output tile comes from a 4×4 input tile with 16 multiplies per channel pair instead
/// of 36, so the GEMM work drops 2.25×.
///
/// With `d` a 4×4 input tile, `g` a 3×3 filter and the transforms below, the tile's output is
/// `Y = Aᵀ [(G g Gᵀ) ⊙ (Bᵀ d B)] A`; summed over input channels the element-wise product becomes 16
/// GEMMs `M_ξ = U_ξ · V_ξ` (`U_ξ` `[C_out × C_in]`, the filters transformed once at load;
/// `V_ξ` `[C_in × tiles]`). Tiles run in blocks of whole tile rows, in parallel, and each block's
/// bias and activation are applied while it is in cache.
///
///     Bᵀ = | 1  0 -1  0 |    G = | 1    0    0  |    Aᵀ = | 1  1  1  0 |
///          | 0  1  1  0 |        | ½    ½    ½  |         | 0  1 -1 -1 |
///          | 0 -1  1  0 |        | ½   -½    ½  |
///          | 0  1  0 -1 |        | 0    0    1  |
struct WinogradConvolution: Sendable {
    let inputChannels: Int
    let outputChannels: Int
    /// `[16][C_out][C_in]`: `U_ξ = (G g Gᵀ)_ξ` for every filter.
    let transformedWeights: [Float]

    /// Transforms `weights` (`[C_out, C_in, 3, 3]`, row-major).
    init(inputChannels: Int, outputChannels: Int, weights: [Float]) {
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        var transformed = [Float](repeating: 0, count: 16 * outputChannels * inputChannels)
        for o in 0..<outputChannels {
            for c in 0..<inputChannels {
                let g = Array(weights[((o * inputChannels + c) * 9)..<((o * inputChannels + c) * 9 + 9)])
                // G g: 4×3.
                var gg = [Float](repeating: 0, count: 12)
                for col in 0..<3 {
                    let (g0, g1, g2) = (g[col], g[3 + col], g[6 + col])
                    gg[col] = g0
                    gg[3 + col] = (g0 + g1 + g2) * 0.5
                    gg[6 + col] = (g0 - g1 + g2) * 0.5
                    gg[9 + col] = g2
                }
                // (G g) Gᵀ: 4×4.
                for row in 0..<4 {
                    let (h0, h1, h2) = (gg[row * 3], gg[row * 3 + 1], gg[row * 3 + 2])
                    let u = [h0, (h0 + h1 + h2) * 0.5, (h0 - h1 + h2) * 0.5, h2]
                    for col in 0..<4 { transformed[((row * 4 + col) * outputChannels + o) * inputChannels + c] = u[col] }
                }
            }
        }
        transformedWeights = transformed
    }

    /// `output = act(conv3×3(input) + bias)`, `C_in` planes of `height × width` into `C_out` planes of
    /// the same size.
    func run(_ input: UnsafePointer<Float>, height: Int, width: Int, bias: UnsafePointer<Float>,
             activation: Activation, into output: UnsafeMutablePointer<Float>) {
        let tileRows = (height + 1) / 2, tileColumns = (width + 1) / 2
        // About 512 tiles a block, and at least one block per thread.
        let rowsPerBlock = max(1, min(max(1, 512 / tileColumns), (tileRows + ComputeThreads.count - 1) / ComputeThreads.count))
        let blocks = (tileRows + rowsPerBlock - 1) / rowsPerBlock
        transformedWeights.withUnsafeBufferPointer { weights in
            guard let weights = weights.baseAddress else { return }
            ComputeThreads.parallelFor(blocks) { block in
                let firstTileRow = block * rowsPerBlock
                let rows = min(rowsPerBlock, tileRows - firstTileRow)
                let tiles = rows * tileColumns
                let transformedTensor = Tensor(uninitializedShape: [16, inputChannels, tiles])
                let productsTensor = Tensor(uninitializedShape: [16, outputChannels, tiles])
                let (transformed, products) = (transformedTensor.data, productsTensor.data)
                defer { withExtendedLifetime((transformedTensor, productsTensor)) {} }
                transformInput(input, height: height, width: width, firstTileRow: firstTileRow, tileRows: rows,
                               tileColumns: tileColumns, into: transformed)
                for xi in 0..<16 {
                    // [C_out, C_in] x [C_in, tiles] -> [C_out, tiles]
                    sgemm(m: outputChannels, n: tiles, k: inputChannels,
                          a: weights + xi * outputChannels * inputChannels, lda: inputChannels,
                          b: transformed + xi * inputChannels * tiles, ldb: tiles,
                          c: products + xi * outputChannels * tiles, ldc: tiles)
                }
                transformOutput(products, height: height, width: width, firstTileRow: firstTileRow, tileRows: rows,
                                tileColumns: tileColumns, into: output)
                // Epilogue over the block's output rows, still in cache.
                let firstRow = 2 * firstTileRow, rowCount = min(2 * rows, height - firstRow)
                for o in 0..<outputChannels {
                    addBiasAndActivate(output + (o * height + firstRow) * width, count: rowCount * width, bias: bias[o], activation: activation)
                }
            }
        }
    }

    /// `V = Bᵀ d B` for every input channel and tile of the block: `transformed[ξ][c][tile]`.
    ///
    /// Eight tiles of a row at a time: the input rows are first split into even and odd columns
    /// (with the zero padding), so that the four columns of eight neighbouring tiles are four
    /// contiguous vector loads.
    private func transformInput(_ input: UnsafePointer<Float>, height: Int, width: Int, firstTileRow: Int, tileRows: Int,
                                tileColumns: Int, into transformed: UnsafeMutablePointer<Float>) {
        let tiles = tileRows * tileColumns
        let planeStride = inputChannels * tiles
        // Padded row p[k] = input[k − 1]; even[m] = p[2m], odd[m] = p[2m + 1]; 8 spare lanes for the loads.
        let halfWidth = tileColumns + 1 + 8
        let rowCount = 2 * tileRows + 2
        let splitTensor = Tensor(uninitializedShape: [rowCount, 2, halfWidth])
        let split = splitTensor.data
        defer { withExtendedLifetime(splitTensor) {} }
        let firstRow = 2 * firstTileRow - 1
        // Every channel writes the same positions, so the padding cleared here stays zero.
        split.update(repeating: 0, count: 2 * rowCount * halfWidth)
        for c in 0..<inputChannels {
            let plane = input + c * height * width
            for r in 0..<rowCount where firstRow + r >= 0 && firstRow + r < height {
                let source = plane + (firstRow + r) * width
                let even = split + (2 * r) * halfWidth, odd = even + halfWidth
                // Input column x is padded column x + 1: even columns of the input go to `odd`.
                var m = 0
                while m + 8 <= width / 2 {
                    let pairs = UnsafeRawPointer(source + 2 * m).loadUnaligned(as: SIMD16<Float>.self)
                    UnsafeMutableRawPointer(odd + m).storeBytes(of: pairs.evenHalf, as: SIMD8<Float>.self)
                    UnsafeMutableRawPointer(even + m + 1).storeBytes(of: pairs.oddHalf, as: SIMD8<Float>.self)
                    m += 8
                }
                while m < width / 2 {
                    odd[m] = source[2 &* m]
                    even[m &+ 1] = source[2 &* m &+ 1]
                    m += 1
                }
                if width % 2 == 1 { odd[width / 2] = source[width - 1] }
            }
            for tileRow in 0..<tileRows {
                var column = 0
                while column < tileColumns {
                    // d B for input rows 0…3 of eight tiles, then Bᵀ (d B) down the rows.
                    let rowBase = split + (2 * (2 * tileRow)) * halfWidth
                    let w0 = transformedRow(rowBase, halfWidth: halfWidth, column: column)
                    let w1 = transformedRow(rowBase + 2 * halfWidth, halfWidth: halfWidth, column: column)
                    let w2 = transformedRow(rowBase + 4 * halfWidth, halfWidth: halfWidth, column: column)
                    let w3 = transformedRow(rowBase + 6 * halfWidth, halfWidth: halfWidth, column: column)
                    let lanes = min(8, tileColumns - column)
                    let destination = transformed + c * tiles + tileRow * tileColumns + column
                    func put(_ xi: Int, _ value: SIMD8<Float>) { store(value, to: destination + xi * planeStride, lanes: lanes) }
                    put(0, w0.0 - w2.0); put(1, w0.1 - w2.1); put(2, w0.2 - w2.2); put(3, w0.3 - w2.3)
                    put(4, w1.0 + w2.0); put(5, w1.1 + w2.1); put(6, w1.2 + w2.2); put(7, w1.3 + w2.3)
                    put(8, w2.0 - w1.0); put(9, w2.1 - w1.1); put(10, w2.2 - w1.2); put(11, w2.3 - w1.3)
                    put(12, w1.0 - w3.0); put(13, w1.1 - w3.1); put(14, w1.2 - w3.2); put(15, w1.3 - w3.3)
                    column += 8
                }
            }
        }
    }

    /// `Y = Aᵀ M A` for every output channel and tile of the block, written into the output planes
    /// (the last row or column of a tile is dropped where the image ends), eight tiles at a time.
    private func transformOutput(_ products: UnsafePointer<Float>, height: Int, width: Int, firstTileRow: Int, tileRows: Int,
                                 tileColumns: Int, into output: UnsafeMutablePointer<Float>) {
        let tiles = tileRows * tileColumns
        let planeStride = outputChannels * tiles
        for o in 0..<outputChannels {
            let plane = output + o * height * width
            for tileRow in 0..<tileRows {
                let y = 2 * (firstTileRow + tileRow)
                var column = 0
                while column < tileColumns {
                    let lanes = min(8, tileColumns - column)
                    let source = products + o * tiles + tileRow * tileColumns + column
                    func m(_ xi: Int) -> SIMD8<Float> { load(source + xi * planeStride, lanes: lanes) }
                    // Aᵀ m: rows 0 and 1 (top, bottom) for columns 0…3, then (Aᵀ m) A.
                    let (m0, m1, m2, m3) = (m(0), m(1), m(2), m(3))
                    let (m4, m5, m6, m7) = (m(4), m(5), m(6), m(7))
                    let (m8, m9, m10, m11) = (m(8), m(9), m(10), m(11))
                    let (m12, m13, m14, m15) = (m(12), m(13), m(14), m(15))
                    let top0 = m0 + m4 + m8, top1 = m1 + m5 + m9, top2 = m2 + m6 + m10, top3 = m3 + m7 + m11
                    let bottom0 = m4 - m8 - m12, bottom1 = m5 - m9 - m13, bottom2 = m6 - m10 - m14, bottom3 = m7 - m11 - m15
                    let y00 = top0 + top1 + top2, y01 = top1 - top2 - top3
                    let y10 = bottom0 + bottom1 + bottom2, y11 = bottom1 - bottom2 - bottom3
                    let upper = plane + y * width + 2 * column, lower = upper + width
                    let hasLower = y + 1 < height
                    if lanes == 8 && 2 * column + 16 <= width {
                        // Whole tiles: interleave the two columns of each output row.
                        UnsafeMutableRawPointer(upper).storeBytes(of: interleaved(y00, y01), as: SIMD16<Float>.self)
                        if hasLower { UnsafeMutableRawPointer(lower).storeBytes(of: interleaved(y10, y11), as: SIMD16<Float>.self) }
                    } else {
                        for lane in 0..<lanes {
                            let x = 2 * lane, inside = 2 * (column + lane) + 1 < width
                            upper[x] = y00[lane]
                            if inside { upper[x + 1] = y01[lane] }
                            if hasLower {
                                lower[x] = y10[lane]
                                if inside { lower[x + 1] = y11[lane] }
                            }
                        }
                    }
                    column += 8
                }
            }
        }
    }
}

/// One input row of eight tiles times B: `(d_r0 − d_r2, d_r1 + d_r2, d_r2 − d_r1, d_r1 − d_r3)`, where
/// `d_rs` is column `s` of the eight tiles, read from the row's even/odd column split.
@inline(__always)
private func transformedRow(_ even: UnsafePointer<Float>, halfWidth: Int, column: Int)
    -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
{
    let evenRow = UnsafeRawPointer(even), oddRow = UnsafeRawPointer(even + halfWidth)
    let d0 = evenRow.loadUnaligned(fromByteOffset: column * 4, as: SIMD8<Float>.self)
    let d1 = oddRow.loadUnaligned(fromByteOffset: column * 4, as: SIMD8<Float>.self)
    let d2 = evenRow.loadUnaligned(fromByteOffset: (column + 1) * 4, as: SIMD8<Float>.self)
    let d3 = oddRow.loadUnaligned(fromByteOffset: (column + 1) * 4, as: SIMD8<Float>.self)
    return (d0 - d2, d1 + d2, d2 - d1, d1 - d3)
}

/// `(a0, b0, a1, b1, …, a7, b7)`.
@inline(__always)
private func interleaved(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD16<Float> {
    SIMD16(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
}

/// Stores the first `lanes` lanes of `vector` at `pointer`.
@inline(__always)
private func store(_ vector: SIMD8<Float>, to pointer: UnsafeMutablePointer<Float>, lanes: Int) {
    if lanes == 8 {
        UnsafeMutableRawPointer(pointer).storeBytes(of: vector, as: SIMD8<Float>.self)
    } else {
        for lane in 0..<lanes { pointer[lane] = vector[lane] }
    }
}

/// Loads `lanes` floats from `pointer` into the first lanes of a vector (the rest are zero).
@inline(__always)
private func load(_ pointer: UnsafePointer<Float>, lanes: Int) -> SIMD8<Float> {
    if lanes == 8 { return UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self) }
    var vector = SIMD8<Float>()
    for lane in 0..<lanes { vector[lane] = pointer[lane] }
    return vector
}
