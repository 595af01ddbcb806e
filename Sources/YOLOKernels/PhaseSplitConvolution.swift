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

    /// Packs `weights` (`[C_out, C_in, 3, 3]`, row-major) tap-major, straight into `PackedMatrix`'s
    /// layout (`[C_out, 9 · C_in]` row `o`, column `tap · C_in + c` at `((o / 8) · 9 · C_in + column) · 8
    /// + o mod 8`), reading each filter in order; the last panel's padding rows are zeros.
    package init(inputChannels: Int, outputChannels: Int, weights: [Float]) {
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        let panelRows = PackedMatrix.panelRows, depth = 9 * inputChannels
        let panels = (outputChannels + panelRows - 1) / panelRows
        let packed = [Float](unsafeUninitializedCapacity: panels * panelRows * depth) { packed, count in
            weights.withUnsafeBufferPointer { weights in
                for o in 0..<outputChannels {
                    let (panel, lane) = o.quotientAndRemainder(dividingBy: panelRows)
                    let row = packed.baseAddress! + panel * depth * panelRows + lane
                    for c in 0..<inputChannels {
                        for tap in 0..<9 { (row + (tap * inputChannels + c) * panelRows).initialize(to: weights[(o * inputChannels + c) * 9 + tap]) }
                    }
                }
            }
            for o in outputChannels..<(panels * panelRows) {
                let (panel, lane) = o.quotientAndRemainder(dividingBy: panelRows)
                for column in 0..<depth { packed.initializeElement(at: (panel * depth + column) * panelRows + lane, to: 0) }
            }
            count = panels * panelRows * depth
        }
        filters = PackedMatrix(rows: outputChannels, depth: depth, packed: packed, offset: 0)
    }
}
