import Foundation
import Testing
import YOLOKernels

/// The packed GEMM against its naive twin, a triple loop in double precision: every tile path
/// (two vectors, one vector, the zero-padded last columns), panels of fewer than eight rows, groups
/// of panels in six-row passes, a share of the panels, `B` in several pieces with their own
/// strides, and each epilogue — and
/// nothing written outside `C`'s rows and columns.
@Suite struct PackedGEMMTests {
    struct Case: CustomStringConvertible, Sendable {
        let rows, columns: Int
        /// Rows of each piece of `B`; their sum is the depth.
        let pieces: [Int]
        /// The share of `A`'s panels to multiply (`nil`: all).
        let panels: Range<Int>?
        var description: String { "\(rows)×\(pieces)×\(columns) panels \(panels.map { "\($0)" } ?? "all")" }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        // Around whole vectors and tiles of every kernel set's width (8 and 16 floats; tiles of 2 or
        // 3 vectors).
        var columnCounts: Set<Int> = [1, 5, 70]
        for lanes in [8, 16] { columnCounts.formUnion([lanes, lanes + 3, 2 * lanes, 2 * lanes + 1, 3 * lanes, 3 * lanes + 7, 6 * lanes + 1]) }
        for rows in [1, 8, 13] {
            for columns in columnCounts.sorted() {
                cases.append(Case(rows: rows, columns: columns, pieces: [7], panels: nil))
            }
        }
        // Groups of two and three panels, which `avx2` multiplies in passes of six rows (6 + 6 + 4 and
        // 6 + 6 + 6 + 6): every way a group's last panel can end (a pass with fewer rows than it
        // multiplies, or none), a lone panel after the groups, and groups that start inside a share.
        for rows in [11, 12, 14, 16, 17, 18, 19, 22, 24, 33, 40, 56] {
            for columns in [16, 33, 70] {
                cases.append(Case(rows: rows, columns: columns, pieces: [19], panels: nil))
            }
        }
        cases.append(Case(rows: 40, columns: 48, pieces: [9, 4], panels: 1..<3))
        cases.append(Case(rows: 64, columns: 33, pieces: [12], panels: 3..<7))
        cases.append(Case(rows: 80, columns: 67, pieces: [64], panels: nil))
        cases.append(Case(rows: 24, columns: 45, pieces: [3, 16, 1], panels: nil))
        cases.append(Case(rows: 40, columns: 33, pieces: [5, 9], panels: 1..<4))
        cases.append(Case(rows: 16, columns: 64, pieces: [1], panels: 1..<2))
        cases.append(Case(rows: 32, columns: 96, pieces: [576], panels: nil))
        return cases
    }()

    @Test(arguments: cases, kernelSetsUnderTest)
    func matchesDoublePrecisionProduct(_ c: Case, kernels: KernelSet) {
        guard runs(kernels) else { return }
        let seed = ([c.rows, c.columns, c.panels?.lowerBound ?? -1] + c.pieces).reduce(0) { $0 &* 31 &+ $1 }
        var generator = SeededGenerator(seed: UInt64(bitPattern: Int64(seed)))
        let depth = c.pieces.reduce(0, +)
        // A with a row stride wider than its depth, to pack from the middle of a larger array.
        let aStride = depth + 3
        let a = randomValues(c.rows * aStride, using: &generator)
        let bias = randomValues(c.rows, using: &generator)
        // Each piece of B a separate array, its rows `columns + extra` apart.
        let strides = c.pieces.indices.map { c.columns + 2 * $0 + 1 }
        let b = c.pieces.indices.map { randomValues(c.pieces[$0] * strides[$0], using: &generator) }
        let packed = a.withUnsafeBufferPointer { PackedMatrix(rows: c.rows, depth: depth, matrix: $0.baseAddress!, rowStride: aStride) }
        let panels = c.panels ?? 0..<packed.panels
        let storedRows = (panels.lowerBound * PackedMatrix.panelRows)..<min(c.rows, panels.upperBound * PackedMatrix.panelRows)

        // The double-precision product, row by row of A and piece by piece of B.
        func product(_ row: Int, _ column: Int) -> Double {
            var sum = 0.0, k = 0
            for (piece, rows) in c.pieces.enumerated() {
                for r in 0..<rows {
                    sum += Double(a[row * aStride + k]) * Double(b[piece][r * strides[piece] + column])
                    k += 1
                }
            }
            return sum
        }
        func silu(_ x: Double) -> Double { x / (1 + exp(-x)) }

        // What C holds before an accumulating product.
        let held = randomValues((c.rows + 1) * (c.columns + 5), using: &generator)
        for epilogue in ["none", "bias", "bias+silu", "accumulate+silu"] {
            let cStride = c.columns + 5, sentinel: Float = 1234.5
            var result = [Float](repeating: sentinel, count: (c.rows + 1) * cStride)
            if epilogue == "accumulate+silu" {
                for row in storedRows { for column in 0..<c.columns { result[row * cStride + column] = held[row * cStride + column] } }
            }
            let pointers = b.map { $0.withUnsafeBufferPointer { $0.baseAddress! } }
            let pieces = c.pieces.indices.map { GEMMInputRows(first: pointers[$0], count: c.pieces[$0], stride: strides[$0]) }
            withExtendedLifetime(b) {
                bias.withUnsafeBufferPointer { bias in
                    let mode: GEMMEpilogue = switch epilogue {
                    case "none": .none
                    case "bias": .biasActivation(bias: bias.baseAddress!, activation: .identity)
                    case "bias+silu": .biasActivation(bias: bias.baseAddress!, activation: .silu)
                    default: .accumulateBiasActivation(bias: bias.baseAddress!, activation: .silu)
                    }
                    pieces.withUnsafeBufferPointer { pieces in
                        result.withUnsafeMutableBufferPointer { result in
                            kernels.packedGEMM(packed, panels: panels, b: pieces, columns: c.columns,
                                               c: result.baseAddress!, rowStride: cStride, epilogue: mode)
                        }
                    }
                }
            }
            var worst = 0.0, outside = 0
            for row in 0...c.rows {
                for column in 0..<cStride {
                    let value = result[row * cStride + column]
                    guard storedRows.contains(row) && column < c.columns else {
                        if value != sentinel { outside += 1 }
                        continue
                    }
                    var expected = product(row, column)
                    if epilogue == "accumulate+silu" { expected += Double(held[row * cStride + column]) }
                    if epilogue != "none" { expected += Double(bias[row]) }
                    if epilogue.hasSuffix("silu") { expected = silu(expected) }
                    // fp32 sums of `depth` products of values in [-1, 1], rounded once per term.
                    let bound = 2e-7 * Double(depth) + 1e-6 * abs(expected) + 1e-7
                    worst = max(worst, abs(Double(value) - expected) / bound)
                }
            }
            #expect(worst <= 1, "\(kernels.name) \(c) \(epilogue): error \(worst)× the bound")
            #expect(outside == 0, "\(kernels.name) \(c) \(epilogue): \(outside) floats written outside C's rows \(storedRows) and \(c.columns) columns")
        }
    }

    @Test func packingKeepsTheMatrixAndPadsTheLastPanelWithZeros() {
        var generator = SeededGenerator(seed: 11)
        let (rows, depth, stride) = (13, 7, 9)
        let matrix = randomValues(rows * stride, using: &generator)
        let packed = matrix.withUnsafeBufferPointer { PackedMatrix(rows: rows, depth: depth, matrix: $0.baseAddress!, rowStride: stride) }
        #expect(packed.panels == 2)
        let kept: [Float] = (0..<rows).flatMap { row in matrix[(row * stride)..<(row * stride + depth)] }
        #expect(packed.unpacked == kept)
    }

    /// A matrix of some columns shares the panels, and multiplies as the columns packed on their own.
    @Test(arguments: kernelSetsUnderTest)
    func columnsOfAPackedMatrixAreThatSubmatrix(kernels: KernelSet) {
        guard runs(kernels) else { return }
        var generator = SeededGenerator(seed: 12)
        let (rows, depth, columns) = (13, 11, 2 * kernels.vectorLanes + 3)
        let matrix = randomValues(rows * depth, using: &generator)
        let b = randomValues(depth * columns, using: &generator)
        let packed = matrix.withUnsafeBufferPointer { PackedMatrix(rows: rows, depth: depth, matrix: $0.baseAddress!, rowStride: depth) }
        for range in [0..<4, 4..<11, 3..<4, 0..<11] {
            let view = packed.columns(range)
            let submatrix: [Float] = (0..<rows).flatMap { row in matrix[(row * depth + range.lowerBound)..<(row * depth + range.upperBound)] }
            #expect(view.rows == rows && view.depth == range.count && view.panels == packed.panels)
            #expect(view.unpacked == submatrix)
            let own = submatrix.withUnsafeBufferPointer { PackedMatrix(rows: rows, depth: range.count, matrix: $0.baseAddress!, rowStride: range.count) }
            func multiply(_ a: PackedMatrix) -> [Float] {
                var c = [Float](repeating: 0, count: rows * columns)
                b.withUnsafeBufferPointer { b in
                    c.withUnsafeMutableBufferPointer { c in
                        kernels.packedGEMM(a, panels: 0..<a.panels, b: b.baseAddress! + range.lowerBound * columns, bRowStride: columns,
                                           columns: columns, c: c.baseAddress!, rowStride: columns, epilogue: .none)
                    }
                }
                return c
            }
            #expect(multiply(view) == multiply(own), "columns \(range)")
        }
    }

    /// The prefetches are hints: with each of them the product is the same, bit for bit, as without —
    /// on several panels, whole tiles and a remainder, `B` in pieces, a share of the panels, a depth
    /// whose panels are not a whole number of cache lines, and each epilogue.
    @Test(arguments: kernelSetsUnderTest)
    func prefetchesChangeNoResult(kernels: KernelSet) {
        guard runs(kernels) else { return }
        var generator = SeededGenerator(seed: 13)
        let (rows, pieces, columns) = (29, [9, 27, 3], 5 * kernels.vectorLanes + 5)
        let depth = pieces.reduce(0, +)
        let a = randomValues(rows * depth, using: &generator), bias = randomValues(rows, using: &generator)
        let b = randomValues(depth * columns, using: &generator), held = randomValues(rows * columns, using: &generator)
        let packed = a.withUnsafeBufferPointer { PackedMatrix(rows: rows, depth: depth, matrix: $0.baseAddress!, rowStride: depth) }
        b.withUnsafeBufferPointer { b in
            bias.withUnsafeBufferPointer { bias in
                let epilogues: [GEMMEpilogue] = [.none, .biasActivation(bias: bias.baseAddress!, activation: .silu),
                                                 .accumulateBiasActivation(bias: bias.baseAddress!, activation: .silu)]
                var first = 0
                let rowsOfB = pieces.map { count in
                    defer { first += count }
                    return GEMMInputRows(first: b.baseAddress! + first * columns, count: count, stride: columns)
                }
                for (index, epilogue) in epilogues.enumerated() {
                    for panels in [0..<packed.panels, 1..<3] {
                        func product(_ prefetching: GEMMPrefetch) -> [Float] {
                            var c = held
                            rowsOfB.withUnsafeBufferPointer { rowsOfB in
                                c.withUnsafeMutableBufferPointer { c in
                                    kernels.packedGEMM(packed, panels: panels, b: rowsOfB, columns: columns, c: c.baseAddress!,
                                                       rowStride: columns, epilogue: epilogue, prefetching: prefetching)
                                }
                            }
                            return c
                        }
                        let plain = product([])
                        for prefetching: GEMMPrefetch in [.filters, .inputRows, [.filters, .inputRows]] {
                            #expect(product(prefetching) == plain, "\(kernels.name) epilogue \(index) panels \(panels) prefetching \(prefetching.rawValue)")
                        }
                    }
                }
            }
        }
    }
}
