/// A 3×3, stride-2, padding-1 convolution (YOLO11's down-sampling `Conv`) as GEMMs that read the
/// input directly, without im2col.
///
/// Split the zero-padded input `p` into its four phases by row and column parity,
/// `P_ab[i][j] = p[2i + a][2j + b]`. Output `(y, x)` reads `p[2y + ky][2x + kx]`, which is
/// `P_(ky mod 2)(kx mod 2)[y + ky/2][x + kx/2]`: for the `OW` outputs of a row, each tap reads a run
/// of `OW` consecutive floats of its phase plane. So an output row is one `packedGEMM` whose `B` is
/// a piece per tap, each the `C_in` phase planes at the tap's offset (the filters packed
/// tap-major to match). The phases hold the input once (im2col would write it 2.25 times), and only
/// for a block of output rows at a time.
///
/// Where output rows are not a whole number of vectors (at least four), a GEMM per row would end
/// each in a partial vector. There the column phase `b = 0` is held twice, as taps `kx = 0` and
/// `kx = 2` read it (one column apart): six planes of `OW`-wide rows, in which every tap reads the
/// output positions `q = y · OW + x` at `q` plus a whole number of rows. A run of positions across
/// rows is then one GEMM straight into the output (`Blocking.positions`).
///
/// It runs all nine taps, or, beside `WinogradConvolution`'s corner taps at stride 2, the other five
/// (`taps`), adding them, the bias and the activation to the corners' sums already in the output.
package struct PhaseSplitConvolution: Sendable {
    package let inputChannels: Int
    package let outputChannels: Int
    /// The taps it runs, `ky · 3 + kx`, in order.
    package let taps: [Int]
    /// `[C_out, taps · C_in]`, column `i · C_in + c` = PyTorch's `weight[o][c][tap / 3][tap % 3]` for
    /// `tap = taps[i]`.
    package let filters: PackedMatrix
    /// Whether `taps` has a corner (`ky` and `kx` both even). Without one, the input rows of parity 0
    /// are read only at `kx = 1`, their even columns, and the split writes nothing else of them.
    package let readsCorners: Bool

    /// The five taps that are not corners, which run beside `WinogradConvolution`'s corner taps.
    package static let edgeAndCentreTaps = [1, 3, 4, 5, 7]

    /// Packs `weights` (`[C_out, C_in, 3, 3]`, row-major) tap-major (column `i · C_in + c` of row
    /// `o` is `weight[o][c][tap / 3][tap % 3]`, `tap = taps[i]`), reading each filter in order.
    package init(inputChannels: Int, outputChannels: Int, weights: [Float], taps: [Int] = Array(0..<9)) {
        precondition(!taps.isEmpty && taps.allSatisfy { (0..<9).contains($0) }, "phase-split taps \(taps)")
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        self.taps = taps
        readsCorners = taps.contains { tap in (tap / 3) % 2 == 0 && (tap % 3) % 2 == 0 }
        filters = weights.withUnsafeBufferPointer { weights in
            PackedMatrix(rows: outputChannels, depth: taps.count * inputChannels) { o, row in
                for c in 0..<inputChannels {
                    for (i, tap) in taps.enumerated() {
                        (row + (i * inputChannels + c) * PackedMatrix.panelRows).initialize(to: weights[(o * inputChannels + c) * 9 + tap])
                    }
                }
            }
        }
    }
}
