/// A 3×3, stride-2, padding-1 convolution (YOLO11's down-sampling `Conv`) as GEMMs that read the
/// input directly, without im2col.
///
/// Split the zero-padded input `p` into its four phases by row and column parity,
/// `P_ab[i][j] = p[2i + a][2j + b]`. Output `(y, x)` reads `p[2y + ky][2x + kx]`, which is
/// `P_(ky mod 2)(kx mod 2)[y + ky/2][x + kx/2]`: with the phase planes `OW + 1` wide and the output
/// positions numbered `q = y · (OW + 1) + x` in the same width, every tap reads its phase plane at
/// `q + (ky/2) · (OW + 1) + kx/2` — consecutive floats for consecutive `q`. So the convolution is one
/// `packedGEMM` whose `B` is nine pieces, one per tap, each the `C_in` phase planes at the tap's
/// offset (the filters packed tap-major to match), over `q`; the column `x = OW` of each row is
/// computed and dropped when the rows are copied into the output. The phases hold the input once
/// (im2col would write it 2.25 times), and only for a block of output rows at a time.
package struct PhaseSplitConvolution: Sendable {
    package let inputChannels: Int
    package let outputChannels: Int
    /// `[C_out, 9 · C_in]`, column `tap · C_in + c` = PyTorch's `weight[o][c][tap / 3][tap % 3]`.
    package let filters: PackedMatrix

    /// Packs `weights` (`[C_out, C_in, 3, 3]`, row-major) tap-major (column `tap · C_in + c` of row
    /// `o` is `weight[o][c][tap / 3][tap % 3]`), reading each filter in order.
    package init(inputChannels: Int, outputChannels: Int, weights: [Float]) {
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        filters = weights.withUnsafeBufferPointer { weights in
            PackedMatrix(rows: outputChannels, depth: 9 * inputChannels) { o, row in
                for c in 0..<inputChannels {
                    for tap in 0..<9 {
                        (row + (tap * inputChannels + c) * PackedMatrix.panelRows).initialize(to: weights[(o * inputChannels + c) * 9 + tap])
                    }
                }
            }
        }
    }
}
