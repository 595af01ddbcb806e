import YOLOKernels
import YOLOTensor

/// The compute of `PhaseSplitConvolution` in this kernel set.
extension PhaseSplitConvolution {
    /// `output = act(conv(input) + bias)` over `taps`, `C_in` planes of `height × width` into `C_out`
    /// planes of `⌈height/2⌉ × ⌈width/2⌉`; `accumulating`, `output = act(output + conv(input) + bias)`.
    func run(_ input: UnsafePointer<Float>, height: Int, width: Int, bias: UnsafePointer<Float>,
             activation: Activation, accumulating: Bool = false, into output: UnsafeMutablePointer<Float>) {
        let outputHeight = (height + 1) / 2, outputWidth = (width + 1) / 2, outputPlane = outputHeight * outputWidth
        let lanes = FloatVector.scalarCount
        let threads = ComputeThreads.count
        let blocking = blocking(height: height, width: width, threads: threads, lanes: lanes)
        let tasks = GEMMTasks(blocks: blocking.blocks, panels: filters.panels, threads: threads)
        let epilogue: GEMMEpilogue = accumulating ? .accumulateBiasActivation(bias: bias, activation: activation)
            : .biasActivation(bias: bias, activation: activation)
        ComputeThreads.parallelFor(tasks.count) { task in
            let (block, panels) = tasks(task)
            switch blocking {
            case let .rows(blocks, phaseWidth):
                // Output rows firstRow ..< firstRow + rows, from phase rows firstRow ... firstRow + rows.
                let blockRows = evenShare(block, of: blocks, count: outputHeight)
                let firstRow = blockRows.lowerBound, rows = blockRows.count
                let planeSize = (rows + 1) * phaseWidth
                let phasesTensor = Tensor(uninitializedShape: [phaseFloats(rows: rows, phaseWidth: phaseWidth)])
                let phases = phasesTensor.data
                defer { withExtendedLifetime(phasesTensor) {} }
                splitIntoPhases(input, height: height, width: width, firstPhaseRow: firstRow, phaseRows: rows + 1,
                                phaseWidth: phaseWidth, planeSize: planeSize, into: phases)
                // Tap (ky, kx) of output (y, x) reads phase (ky mod 2, kx mod 2) at row y + ky/2, column
                // x + kx/2: each of an output row's taps is a run of OW floats.
                let tapStarts = taps.map { tap in
                    let (ky, kx) = tap.quotientAndRemainder(dividingBy: 3)
                    return UnsafePointer(phases + ((ky % 2) * 2 + kx % 2) * inputChannels * planeSize + (ky / 2) * phaseWidth + kx / 2)
                }
                var pieces = tapStarts.map { GEMMInputRows(first: $0, count: inputChannels, stride: planeSize) }
                for row in 0..<rows {
                    for i in tapStarts.indices {
                        pieces[i] = GEMMInputRows(first: tapStarts[i] + row * phaseWidth, count: inputChannels, stride: planeSize)
                    }
                    pieces.withUnsafeBufferPointer { pieces in
                        packedGEMM(filters, panels: panels, b: pieces, columns: outputWidth,
                                   c: output + (firstRow + row) * outputWidth, rowStride: outputPlane, epilogue: epilogue,
                                   prefetching: row == 0 ? .filters(forBlock: block, threads: threads) : [])
                    }
                }
            case let .positions(blocks):
                let positions = Self.positionBlock(block, of: blocks, positions: outputPlane, lanes: lanes)
                let rows = Self.rows(of: positions, outputWidth: outputWidth)
                let planeSize = (rows.count + 1) * outputWidth
                let planesTensor = Tensor(uninitializedShape: [positionPlaneFloats(rows: rows.count, outputWidth: outputWidth)])
                let planes = planesTensor.data
                defer { withExtendedLifetime(planesTensor) {} }
                splitIntoPositionPlanes(input, height: height, width: width, firstRow: rows.lowerBound, rows: rows.count,
                                        planeSize: planeSize, into: planes)
                // Tap (ky, kx) reads plane (ky mod 2, kx) at row y + ky/2, column x: for the block's
                // positions, one run of floats from its first position's.
                let first = positions.lowerBound - rows.lowerBound * outputWidth
                let pieces = taps.map { tap in
                    let (ky, kx) = tap.quotientAndRemainder(dividingBy: 3)
                    return GEMMInputRows(first: planes + ((ky % 2) * 3 + kx) * inputChannels * planeSize + (ky / 2) * outputWidth + first,
                                         count: inputChannels, stride: planeSize)
                }
                pieces.withUnsafeBufferPointer { pieces in
                    packedGEMM(filters, panels: panels, b: pieces, columns: positions.count, c: output + positions.lowerBound,
                               rowStride: outputPlane, epilogue: epilogue, prefetching: .filters(forBlock: block, threads: threads))
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
                    // Without the corner taps, phase (0, 0) is never read.
                    let evenColumnsOnly = a == 0 && !readsCorners
                    guard y >= 0 && y < height else {
                        evenRow.update(repeating: 0, count: phaseWidth)
                        if !evenColumnsOnly { oddRow.update(repeating: 0, count: phaseWidth) }
                        continue
                    }
                    let source = input + (c * height + y) * width
                    // The next channel's row, a plane away, asked for while this one is split: each
                    // channel's rows are a short run the hardware prefetchers find late.
                    if c + 1 < inputChannels { prefetch(source + height * width, count: width) }
                    if evenColumnsOnly {
                        everyOtherColumn(source, width: width, from: 0, into: evenRow)
                        (evenRow + evens).update(repeating: 0, count: phaseWidth - evens)
                        continue
                    }
                    oddRow[0] = 0
                    deinterleave(source, count: width, evens: evenRow, odds: oddRow + 1)
                    (evenRow + evens).update(repeating: 0, count: phaseWidth - evens)
                    (oddRow + 1 + odds).update(repeating: 0, count: phaseWidth - 1 - odds)
                }
            }
        }
    }

    /// Writes the six planes of output rows `firstRow ..< firstRow + rows` (`positionPlaneFloats`):
    /// row `i` of plane `(a, kx)`, channel `c`, is the input's row `2(firstRow + i) + a − 1` at
    /// columns `2x + kx − 1`, `x < OW`, zero outside the input.
    private func splitIntoPositionPlanes(_ input: UnsafePointer<Float>, height: Int, width: Int, firstRow: Int, rows: Int,
                                         planeSize: Int, into planes: UnsafeMutablePointer<Float>) {
        let outputWidth = (width + 1) / 2, odds = width / 2
        for c in 0..<inputChannels {
            for i in 0...rows {
                for a in 0..<2 {
                    // Columns 2x − 1, 2x and 2x + 1: kx = 0, 1, 2.
                    func row(_ kx: Int) -> UnsafeMutablePointer<Float> {
                        planes + ((a * 3 + kx) * inputChannels + c) * planeSize + i * outputWidth
                    }
                    let y = 2 * (firstRow + i) + a - 1
                    // Without the corner taps, planes (0, 0) and (0, 2) are never read.
                    let evenColumnsOnly = a == 0 && !readsCorners
                    guard y >= 0 && y < height else {
                        for kx in evenColumnsOnly ? 1..<2 : 0..<3 { row(kx).update(repeating: 0, count: outputWidth) }
                        continue
                    }
                    let source = input + (c * height + y) * width
                    // As in `splitIntoPhases`.
                    if c + 1 < inputChannels { prefetch(source + height * width, count: width) }
                    if evenColumnsOnly {
                        everyOtherColumn(source, width: width, from: 0, into: row(1))
                        continue
                    }
                    row(0)[0] = 0
                    deinterleave(source, count: width, evens: row(1), odds: row(2), oddsAgain: row(0) + 1, limit: outputWidth - 1)
                    (row(2) + odds).update(repeating: 0, count: outputWidth - odds)
                }
            }
        }
    }
}

/// `destination[k] = row[first + 2k]` for every such column of the row's `width`, sixteen at a time;
/// reads nothing past `row[width − 1]`. (The even columns of a phase-split row whose odd ones are
/// not read; the odd columns of the stride-2 Winograd transform's rows.)
@inline(__always)
func everyOtherColumn(_ row: UnsafePointer<Float>, width: Int, from first: Int, into destination: UnsafeMutablePointer<Float>) {
    var k = 0
    while first &+ 2 &* k &+ 32 <= width {
        let pairs = UnsafeRawPointer(row + (first &+ 2 &* k)).loadUnaligned(as: SIMD32<Float>.self)
        UnsafeMutableRawPointer(destination + k).storeBytes(of: pairs.evenHalf, as: SIMD16<Float>.self)
        k &+= 16
    }
    while first &+ 2 &* k < width {
        destination[k] = row[first &+ 2 &* k]
        k &+= 1
    }
}

/// `evens[j] = source[2j]`, `odds[j] = source[2j + 1]` for the `count` floats of `source`, eight
/// pairs at a time; reads nothing past `source[count − 1]`. Given `oddsAgain`, the odd floats also
/// go there, the first `limit` of them (the phase-split planes' column tap 0 is tap 2 shifted by one).
@inline(__always)
private func deinterleave(_ source: UnsafePointer<Float>, count: Int, evens: UnsafeMutablePointer<Float>,
                          odds: UnsafeMutablePointer<Float>, oddsAgain: UnsafeMutablePointer<Float>? = nil, limit: Int = 0) {
    var j = 0
    while 2 * j + 16 <= count {
        let pairs = UnsafeRawPointer(source + 2 * j).loadUnaligned(as: SIMD16<Float>.self)
        UnsafeMutableRawPointer(evens + j).storeBytes(of: pairs.evenHalf, as: SIMD8<Float>.self)
        UnsafeMutableRawPointer(odds + j).storeBytes(of: pairs.oddHalf, as: SIMD8<Float>.self)
        if let oddsAgain {
            if j + 8 <= limit {
                UnsafeMutableRawPointer(oddsAgain + j).storeBytes(of: pairs.oddHalf, as: SIMD8<Float>.self)
            } else {
                for k in j..<limit { oddsAgain[k] = pairs.oddHalf[k - j] }
            }
        }
        j += 8
    }
    while 2 * j < count {
        evens[j] = source[2 * j]
        if 2 * j + 1 < count {
            odds[j] = source[2 * j + 1]
            if let oddsAgain, j < limit { oddsAgain[j] = source[2 * j + 1] }
        }
        j += 1
    }
}
