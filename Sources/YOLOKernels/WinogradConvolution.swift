/// A 3×3, stride-1, padding-1 convolution by Winograd's minimal filtering F(4×4, 3×3) (Lavin & Gray,
/// 2015): each 4×4 output tile comes from a 6×6 input tile with 36 multiplies per channel pair
/// instead of 144, so the GEMM work drops 4×.
///
/// With `d` a 6×6 input tile, `g` a 3×3 filter and the transforms below, the tile's output is
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
package struct WinogradConvolution: Sendable {
    package let inputChannels: Int
    package let outputChannels: Int
    /// `U_ξ = (G g Gᵀ)_ξ` for every filter, `[C_out × C_in]` for each of the 36 ξ, packed for
    /// `packedGEMM`.
    package let transformedWeights: [PackedMatrix]

    /// Transforms `weights` (`[C_out, C_in, 3, 3]`, row-major).
    package init(inputChannels: Int, outputChannels: Int, weights: [Float]) {
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        // The 36 planes side by side, each already in `PackedMatrix`'s layout (zero rows pad the last
        // panel): U_ξ[o][c] at ξ · planeSize + ((o / 8) · C_in + c) · 8 + o mod 8.
        let panelRows = PackedMatrix.panelRows
        precondition(panelRows == SIMD8<Float>.scalarCount, "the transform stores a panel's rows as one SIMD8")
        let panels = (outputChannels + panelRows - 1) / panelRows
        let planeSize = PackedMatrix.floatCount(rows: outputChannels, depth: inputChannels)
        // A panel's eight filters at a time, one per lane, so that each of the 36 values of a
        // channel's transform is one store of the panel's eight rows; lanes past the last filter
        // transform zeros into the padding rows. Every float is written, none first zeroed.
        let transformed = [Float](unsafeUninitializedCapacity: 36 * planeSize) { transformed, count in
            weights.withUnsafeBufferPointer { weights in
                let weights = weights.baseAddress!, transformed = transformed.baseAddress!
                ComputeThreads.parallelFor(panels) { panel in
                    let filters = min(panelRows, outputChannels - panel * panelRows)
                    for c in 0..<inputChannels {
                        @inline(__always) func tap(_ k: Int) -> SIMD8<Double> {
                            var values = SIMD8<Double>()
                            for lane in 0..<filters { values[lane] = Double(weights[((panel * panelRows + lane) * inputChannels + c) * 9 + k]) }
                            return values
                        }
                        // G g, column by column of g: 6×3.
                        let columns = (filterTransform(tap(0), tap(3), tap(6)),
                                       filterTransform(tap(1), tap(4), tap(7)),
                                       filterTransform(tap(2), tap(5), tap(8)))
                        // (G g) Gᵀ, row by row of G g, rounded once into plane ξ = 6·row + col.
                        let destination = UnsafeMutableRawPointer(transformed + (panel * inputChannels + c) * panelRows)
                        @inline(__always) func put(_ row: Int, _ a: SIMD8<Double>, _ b: SIMD8<Double>, _ e: SIMD8<Double>) {
                            @inline(__always) func store(_ col: Int, _ values: SIMD8<Double>) {
                                destination.storeBytes(of: SIMD8<Float>(values), toByteOffset: (6 * row + col) * planeSize * 4,
                                                       as: SIMD8<Float>.self)
                            }
                            let u = filterTransform(a, b, e)
                            store(0, u.0); store(1, u.1); store(2, u.2); store(3, u.3); store(4, u.4); store(5, u.5)
                        }
                        put(0, columns.0.0, columns.1.0, columns.2.0)
                        put(1, columns.0.1, columns.1.1, columns.2.1)
                        put(2, columns.0.2, columns.1.2, columns.2.2)
                        put(3, columns.0.3, columns.1.3, columns.2.3)
                        put(4, columns.0.4, columns.1.4, columns.2.4)
                        put(5, columns.0.5, columns.1.5, columns.2.5)
                    }
                }
            }
            count = 36 * planeSize
        }
        transformedWeights = (0..<36).map { xi in
            PackedMatrix(rows: outputChannels, depth: inputChannels, packed: transformed, offset: xi * planeSize)
        }
    }
}

/// `G (a, b, e)ᵀ` in double precision, for eight filters at once: one column (or row) of each
/// filter, transformed.
@inline(__always)
private func filterTransform(_ a: SIMD8<Double>, _ b: SIMD8<Double>, _ e: SIMD8<Double>) -> Six64 {
    let third = 1.0 / 3, fifteenth = 1.0 / 15  // multiplications: a load does millions of these
    return (a, (a + b + e) * third, (b - a - e) * third, -(16 * a + 8 * b + 4 * e) * fifteenth, (a - 2 * b + 4 * e) * fifteenth, e)
}

private typealias Six64 = (SIMD8<Double>, SIMD8<Double>, SIMD8<Double>, SIMD8<Double>, SIMD8<Double>, SIMD8<Double>)
