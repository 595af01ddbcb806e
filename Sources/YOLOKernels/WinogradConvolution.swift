/// A 3×3, padding-1 convolution by Winograd's minimal filtering: each 4×4 output tile comes from
/// a few GEMMs over transformed input tiles instead of one over the input itself.
///
/// **Stride 1: F(4×4, 3×3)** (Lavin & Gray, 2015). Each 4×4 output tile comes from a 6×6 input tile
/// with 36 multiplies per channel pair instead of 144, so the GEMM work drops 4×. With `d` a 6×6
/// input tile, `g` a 3×3 filter and the transforms below, the tile's output is
/// `Y = Aᵀ [(G g Gᵀ) ⊙ (Bᵀ d B)] A`; summed over input channels the element-wise product becomes 36
/// GEMMs `M_ξ = U_ξ · V_ξ` (`U_ξ` `[C_out × C_in]`, the filters transformed once at load, in double
/// precision; `V_ξ` `[C_in × tiles]`). Tiles run in blocks of whole tile rows, in parallel, or, for
/// a small layer whose rows do not divide among the threads, in one block shared out by channels
/// (`Blocking`); each block's bias and activation are applied while it is in cache.
///
/// The interpolation points are 0, 1, −1, ½, −2 and ∞ rather than the usual 0, ±1, ±2, ∞: the
/// transforms then grow rounding errors about three times less (Barabasz et al., "Error analysis and
/// improving the accuracy of Winograd convolution for deep neural networks", 2020; in float32 over
/// 64 channels of values in [−1, 1], the largest output error falls from 2.6e-4 to 8.3e-5).
///
///     Bᵀ = | 1 -3/2  -2  3/2  1  0 |   G = |    1     0     0  |   Aᵀ = | 1  1  1   1    1  0 |
///          | 0  -1   1/2 5/2  1  0 |       |  1/3   1/3   1/3  |        | 0  1 -1  1/2  -2  0 |
///          | 0   1  -5/2 1/2  1  0 |       | -1/3   1/3  -1/3  |        | 0  1  1  1/4   4  0 |
///          | 0  -2   -1   2   1  0 |       |-16/15 -8/15 -4/15 |        | 0  1 -1  1/8  -8  1 |
///          | 0  1/2  -1 -1/2  1  0 |       | 1/15 -2/15  4/15 |
///          | 0   1 -3/2  -2  3/2 1 |       |    0     0     1  |
///
/// **Stride 2: the four corner taps by F(4×4, 2×2).** With `p` the zero-padded input and its even
/// phase `P[i][j] = p[2i][2j]`, the taps `(ky, kx)` with both even read `P[y + ky/2][x + kx/2]`: a
/// 2×2 stride-1 convolution over `P`, filter tap `(s, t)` PyTorch's `(2s, 2t)`. Each 4×4 output tile
/// comes from a 5×5 tile of `P` through 25 GEMMs of depth `C_in`: 25/16 multiplies per output and
/// input channel for those four taps instead of 4. It stores their sum alone, with no bias or
/// activation: `Convolution` then adds the other five taps by the phase split's GEMM, with the bias
/// and activation, into the same output (`PhaseSplitConvolution`, `.accumulateBiasActivation`).
/// (All nine taps as one 2×2 convolution over the four phases, 4 · C_in deep, take 6.25 multiplies
/// instead of 9, but their transformed input is 6.25 · C_in floats an output, which the transform
/// writes and the GEMMs read from beyond the second-level cache: no faster than the direct GEMM with
/// 16-float vectors, docs/performance.md.) The points are 0, ½, −1, 2 and ∞, the ones of that size whose
/// float32 error was smallest in a sweep of every set from 0, ±1, ±2, ±½, ±¼, ±3/2; the rows of `Bᵀ`
/// are scaled so that its weights are sums of powers of two, the scale going to `G`:
///
///     Bᵀ = | 1 -3/2 -3/2  1   0 |   G = |    1    0  |   Aᵀ = | 1  1    1   1  0 |
///          | 0   1   1/2 -1/2 0 |       | 16/9  8/9  |        | 0  1/2 -1   2  0 |
///          | 0  -1   5/2 -1   0 |       |  2/9 -2/9  |        | 0  1/4  1   4  0 |
///          | 0 -1/2  1/2  1   0 |       |  1/9  2/9  |        | 0  1/8 -1   8  1 |
///          | 0   1  -3/2 -3/2 1 |       |    0    1  |
package struct WinogradConvolution: Sendable {
    package let inputChannels: Int
    package let outputChannels: Int
    /// 1: F(4×4, 3×3), the whole convolution; 2: F(4×4, 2×2), the corner taps alone.
    package let stride: Int
    /// `U_ξ` for every filter, `[C_out × depth]` for each of the `points²` ξ, packed for `packedGEMM`.
    package let transformedWeights: [PackedMatrix]

    /// The side of a transformed tile: 6 at stride 1, 5 at stride 2.
    package var points: Int { stride == 1 ? 6 : 5 }
    /// The output's height or width for an input's.
    package func outputSize(_ inputSize: Int) -> Int { (inputSize + stride - 1) / stride }

    /// Transforms `weights` (`[C_out, C_in, 3, 3]`, row-major) for a convolution of `stride` 1 or 2.
    package init(inputChannels: Int, outputChannels: Int, stride: Int = 1, weights: [Float]) {
        precondition(stride == 1 || stride == 2, "Winograd convolution of stride \(stride)")
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        self.stride = stride
        let points = stride == 1 ? 6 : 5
        // The planes side by side, each already in `PackedMatrix`'s layout (zero rows pad the last
        // panel): U_ξ[o][c] at ξ · planeSize + ((o / 8) · C_in + c) · 8 + o mod 8.
        let panelRows = PackedMatrix.panelRows
        precondition(panelRows == SIMD8<Float>.scalarCount, "the transform stores a panel's rows as one SIMD8")
        let panels = (outputChannels + panelRows - 1) / panelRows
        let planeSize = PackedMatrix.floatCount(rows: outputChannels, depth: inputChannels)
        // A panel's eight filters at a time, one per lane, so that each value of a channel's
        // transform is one store of the panel's eight rows; lanes past the last filter transform
        // zeros into the padding rows. Every float is written, none first zeroed.
        let transformed = [Float](unsafeUninitializedCapacity: points * points * planeSize) { transformed, count in
            weights.withUnsafeBufferPointer { weights in
                let weights = weights.baseAddress!, transformed = transformed.baseAddress!
                let filterSize = inputChannels * 9
                ComputeThreads.parallelFor(panels) { panel in
                    let filters = min(panelRows, outputChannels - panel * panelRows)
                    // The panel's filters interleaved in double precision, each read in order: tap
                    // `i = 9c + 3ky + kx` of filter `lane` at double `8i + lane`, so that a tap of
                    // the eight filters is one vector load (gathered lane by lane, a tap at a time,
                    // the taps took most of a model's load).
                    let interleaved = UnsafeMutableRawPointer.allocate(byteCount: filterSize * 64, alignment: 64)
                    defer { interleaved.deallocate() }
                    let lanes = interleaved.bindMemory(to: Double.self, capacity: filterSize * panelRows)
                    if filters < panelRows { lanes.initialize(repeating: 0, count: filterSize * panelRows) }
                    for lane in 0..<filters {
                        let filter = weights + (panel * panelRows + lane) * filterSize
                        for i in 0..<filterSize { lanes[i * panelRows + lane] = Double(filter[i]) }
                    }
                    for c in 0..<inputChannels {
                        @inline(__always) func tap(_ ky: Int, _ kx: Int) -> SIMD8<Double> {
                            UnsafeRawPointer(interleaved).load(fromByteOffset: (9 * c + 3 * ky + kx) * 64, as: SIMD8<Double>.self)
                        }
                        // (G g Gᵀ)[row][col] into plane ξ = points · row + col, rounded once.
                        let destination = UnsafeMutableRawPointer(transformed + (panel * inputChannels + c) * panelRows)
                        @inline(__always) func store(_ row: Int, _ col: Int, _ values: SIMD8<Double>) {
                            destination.storeBytes(of: SIMD8<Float>(values), toByteOffset: (points * row + col) * planeSize * 4,
                                                   as: SIMD8<Float>.self)
                        }
                        if stride == 1 {
                            // G g, column by column of g: 6×3; then (G g) Gᵀ, row by row of G g.
                            let columns = (filterTransform(tap(0, 0), tap(1, 0), tap(2, 0)),
                                           filterTransform(tap(0, 1), tap(1, 1), tap(2, 1)),
                                           filterTransform(tap(0, 2), tap(1, 2), tap(2, 2)))
                            @inline(__always) func put(_ row: Int, _ a: SIMD8<Double>, _ b: SIMD8<Double>, _ e: SIMD8<Double>) {
                                let u = filterTransform(a, b, e)
                                store(row, 0, u.0); store(row, 1, u.1); store(row, 2, u.2); store(row, 3, u.3); store(row, 4, u.4)
                                store(row, 5, u.5)
                            }
                            put(0, columns.0.0, columns.1.0, columns.2.0)
                            put(1, columns.0.1, columns.1.1, columns.2.1)
                            put(2, columns.0.2, columns.1.2, columns.2.2)
                            put(3, columns.0.3, columns.1.3, columns.2.3)
                            put(4, columns.0.4, columns.1.4, columns.2.4)
                            put(5, columns.0.5, columns.1.5, columns.2.5)
                        } else {
                            // The corners' 2×2 filter, tap (s, t) PyTorch's (2s, 2t): G g (5×2), then (G g) Gᵀ.
                            let columns = (filterTransform(tap(0, 0), tap(2, 0)), filterTransform(tap(0, 2), tap(2, 2)))
                            @inline(__always) func put(_ row: Int, _ a: SIMD8<Double>, _ b: SIMD8<Double>) {
                                let u = filterTransform(a, b)
                                store(row, 0, u.0); store(row, 1, u.1); store(row, 2, u.2); store(row, 3, u.3); store(row, 4, u.4)
                            }
                            put(0, columns.0.0, columns.1.0)
                            put(1, columns.0.1, columns.1.1)
                            put(2, columns.0.2, columns.1.2)
                            put(3, columns.0.3, columns.1.3)
                            put(4, columns.0.4, columns.1.4)
                        }
                    }
                }
            }
            count = points * points * planeSize
        }
        transformedWeights = (0..<points * points).map { xi in
            PackedMatrix(rows: outputChannels, depth: inputChannels, packed: transformed, offset: xi * planeSize)
        }
    }
}

/// `G (a, b, e)ᵀ` of F(4×4, 3×3) in double precision, for eight filters at once: one column (or row)
/// of each filter, transformed.
@inline(__always)
private func filterTransform(_ a: SIMD8<Double>, _ b: SIMD8<Double>, _ e: SIMD8<Double>) -> Six64 {
    let third = 1.0 / 3, fifteenth = 1.0 / 15  // multiplications: a load does millions of these
    return (a, (a + b + e) * third, (b - a - e) * third, -(16 * a + 8 * b + 4 * e) * fifteenth, (a - 2 * b + 4 * e) * fifteenth, e)
}

/// `G (a, b)ᵀ` of F(4×4, 2×2), likewise.
@inline(__always)
private func filterTransform(_ a: SIMD8<Double>, _ b: SIMD8<Double>) -> Five64 {
    let ninth = 1.0 / 9
    return (a, (16 * a + 8 * b) * ninth, (2 * a - 2 * b) * ninth, (a + 2 * b) * ninth, b)
}

private typealias Six64 = (SIMD8<Double>, SIMD8<Double>, SIMD8<Double>, SIMD8<Double>, SIMD8<Double>, SIMD8<Double>)
private typealias Five64 = (SIMD8<Double>, SIMD8<Double>, SIMD8<Double>, SIMD8<Double>, SIMD8<Double>)
