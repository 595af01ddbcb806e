import YOLOKernels
import YOLOTensor

/// The compute of `PhaseSplitConvolution` in this kernel set.
extension PhaseSplitConvolution {
    /// `output = act(conv(input) + bias)`, `C_in` planes of `height × width` into `C_out` planes of
    /// `⌈height/2⌉ × ⌈width/2⌉`.
    func run(_ input: UnsafePointer<Float>, height: Int, width: Int, bias: UnsafePointer<Float>,
             activation: Activation, into output: UnsafeMutablePointer<Float>) {
        let outputHeight = (height + 1) / 2, outputWidth = (width + 1) / 2
        let (phaseWidth, wholeRows, blocks) = blocking(height: height, width: width, threads: ComputeThreads.count,
                                                       lanes: FloatVector.scalarCount)
        let tasks = GEMMTasks(blocks: blocks, panels: filters.panels)
        ComputeThreads.parallelFor(tasks.count) { task in
            let (block, panels) = tasks(task)
            let firstRow = outputHeight * block / blocks, rows = outputHeight * (block + 1) / blocks - firstRow
            // Phase rows firstRow ... firstRow + rows. (Tap (2, 2) reads one float past its plane in the
            // dropped column of the last row: the first of the next plane, phase (0, 1)'s.) The
            // narrow path below reads up to a vector further, past the last plane into the zeroed
            // spare floats after it.
            let planeSize = (rows + 1) * phaseWidth, lanes = FloatVector.scalarCount
            let phasesTensor = Tensor(uninitializedShape: [phaseFloats(rows: rows, phaseWidth: phaseWidth, lanes: lanes)])
            let phases = phasesTensor.data
            defer { withExtendedLifetime(phasesTensor) {} }
            (phases + 4 * inputChannels * planeSize).update(repeating: 0, count: lanes)
            splitIntoPhases(input, height: height, width: width, firstPhaseRow: firstRow, phaseRows: rows + 1,
                            phaseWidth: phaseWidth, planeSize: planeSize, into: phases)
            /// `C = act(W · B + b)` over `columns` positions from `q = firstColumn`.
            // Where each tap reads position q = 0 in its phase plane.
            let tapStarts = (0..<9).map { tap in
                let (ky, kx) = tap.quotientAndRemainder(dividingBy: 3)
                let phase = (ky % 2) * 2 + kx % 2
                return UnsafePointer(phases + phase * inputChannels * planeSize + (ky / 2) * phaseWidth + kx / 2)
            }
            var taps = tapStarts.map { GEMMInputRows(first: $0, count: inputChannels, stride: planeSize) }
            func multiply(firstColumn: Int, columns: Int, into c: UnsafeMutablePointer<Float>, rowStride: Int,
                          prefetching: GEMMPrefetch) {
                for tap in 0..<9 { taps[tap] = GEMMInputRows(first: tapStarts[tap] + firstColumn, count: inputChannels, stride: planeSize) }
                taps.withUnsafeBufferPointer { taps in
                    packedGEMM(filters, panels: panels, b: taps, columns: columns, c: c, rowStride: rowStride,
                               epilogue: .biasActivation(bias: bias, activation: activation), prefetching: prefetching)
                }
            }
            let outputPlane = outputHeight * outputWidth
            if wholeRows {
                // Rows of whole vectors: one GEMM per output row, straight into the output.
                for row in 0..<rows {
                    multiply(firstColumn: row * phaseWidth, columns: outputWidth,
                             into: output + (firstRow + row) * outputWidth, rowStride: outputPlane,
                             prefetching: row == 0 ? filterPrefetch(block) : [])
                }
                return
            }
            // Narrow or ragged rows: one GEMM over the block (positions OW + 1 apart per row), into
            // rows of OW + 1 that are copied into rows of OW, the last column of each dropped. The
            // GEMM runs over whole vectors of positions, the last one computed past the block's end
            // and never read, so that its last columns do not go through the GEMM's zero-padded copy
            // (of all 9 · C_in rows of B: 1152 at YOLO11n's layers 5, 7 and 20).
            let columns = Self.productColumns(rows: rows, phaseWidth: phaseWidth, lanes: lanes)
            let productsTensor = Tensor(uninitializedShape: [outputChannels, columns])
            let products = productsTensor.data
            defer { withExtendedLifetime(productsTensor) {} }
            multiply(firstColumn: 0, columns: columns, into: products, rowStride: columns, prefetching: filterPrefetch(block))
            let outputRows = (panels.lowerBound * PackedMatrix.panelRows)..<min(outputChannels, panels.upperBound * PackedMatrix.panelRows)
            for o in outputRows {
                for row in 0..<rows {
                    (output + o * outputPlane + (firstRow + row) * outputWidth)
                        .update(from: products + o * columns + row * phaseWidth, count: outputWidth)
                }
            }
        }
    }

    /// Writes `P_ab[c][i][j] = p[c][2(firstPhaseRow + i) + a][2j + b]` for the phase rows
    /// `i < phaseRows`, `j < phaseWidth`, where `p` is the input with one row and column of zeros
    /// before it (and zeros after): phase `a·2 + b`, channel `c` at `phases + (phase · C_in + c) ·
    /// planeSize`.
    private func splitIntoPhases(_ input: UnsafePointer<Float>, height: Int, width: Int, firstPhaseRow: Int,
                                 phaseRows: Int, phaseWidth: Int, planeSize: Int, into phases: UnsafeMutablePointer<Float>) {
        // Padded column 2j + 1 is input column 2j (phase b = 1); padded column 2j is input column
        // 2j − 1 (phase b = 0, zero at j = 0).
        let evens = (width + 1) / 2, odds = width / 2
        for c in 0..<inputChannels {
            for i in 0..<phaseRows {
                for a in 0..<2 {
                    let even = phases + ((a * 2 + 1) * inputChannels + c) * planeSize
                    let odd = phases + ((a * 2) * inputChannels + c) * planeSize
                    let y = 2 * (firstPhaseRow + i) + a - 1
                    let evenRow = even + i * phaseWidth, oddRow = odd + i * phaseWidth
                    guard y >= 0 && y < height else {
                        evenRow.update(repeating: 0, count: phaseWidth)
                        oddRow.update(repeating: 0, count: phaseWidth)
                        continue
                    }
                    let source = input + (c * height + y) * width
                    // The next channel's row, a plane away, asked for while this one is split: each
                    // channel's rows are a short run the hardware prefetchers find late.
                    if c + 1 < inputChannels { prefetch(source + height * width, count: width) }
                    oddRow[0] = 0
                    deinterleave(source, count: width, evens: evenRow, odds: oddRow + 1)
                    (evenRow + evens).update(repeating: 0, count: phaseWidth - evens)
                    (oddRow + 1 + odds).update(repeating: 0, count: phaseWidth - 1 - odds)
                }
            }
        }
    }
}

/// `evens[j] = source[2j]`, `odds[j] = source[2j + 1]` for the `count` floats of `source`, eight
/// pairs at a time; reads nothing past `source[count − 1]`.
@inline(__always)
private func deinterleave(_ source: UnsafePointer<Float>, count: Int, evens: UnsafeMutablePointer<Float>,
                          odds: UnsafeMutablePointer<Float>) {
    var j = 0
    while 2 * j + 16 <= count {
        let pairs = UnsafeRawPointer(source + 2 * j).loadUnaligned(as: SIMD16<Float>.self)
        UnsafeMutableRawPointer(evens + j).storeBytes(of: pairs.evenHalf, as: SIMD8<Float>.self)
        UnsafeMutableRawPointer(odds + j).storeBytes(of: pairs.oddHalf, as: SIMD8<Float>.self)
        j += 8
    }
    while 2 * j < count {
        evens[j] = source[2 * j]
        if 2 * j + 1 < count { odds[j] = source[2 * j + 1] }
        j += 1
    }
}
