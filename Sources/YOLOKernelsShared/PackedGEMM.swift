import YOLOKernels
import YOLOTensor

/// `C = epilogue(A · B)` for the rows of `A`'s panels `panels` and `columns` columns: `A` packed at
/// load (`PackedMatrix`), `B` read where it lies (`A.depth` rows in one or more `GEMMInputRows`,
/// `columns` floats of each), row `r` of `C` at `c + r · rowStride`.
///
/// The microkernel keeps an 8-row × two-vector tile of `C` in registers (16 accumulators) and runs
/// down the whole depth: per step, two vector loads of `B`, eight broadcasts of `A` and sixteen
/// fused multiply-adds; the bias is added in the registers before the tile's one store. Kernel sets
/// with 16 vector registers run it in passes of fewer rows (`microkernelRows`): 6 for `avx2`, over
/// groups of three panels as four passes of six rows (12 accumulators: enough multiply-adds in
/// flight to hide their latency on two FMA units, which 8 are not), 4 for `baseline`. Panels run
/// outermost: one panel of `A` (`depth × 8` floats; or the group) stays in cache while the kernel
/// walks every column tile of the block, and the activation runs over the block's rows once all
/// panels have stored. (Column tiles outermost, `B`'s strip shared by all panels, measured 6% slower
/// over YOLO11n and 30% on its 160×160 1×1 convolutions, whose `B` rows lie 100 KiB apart.)
/// Columns left over past the last whole vector are copied, zero-padded, into a small buffer and
/// multiplied like a whole vector, of which only the real columns are stored. (The copy reads a few
/// floats of every row of `B`. A caller whose `B` rows may be read up to a vector past their last
/// column, and whose `C` rows have room for it, passes `columns` rounded up to whole vectors,
/// `wholeVectorCount`, instead: as Winograd's products do.)
///
/// `prefetching` says which operands are not in cache yet (`GEMMPrefetch`): their lines are asked
/// for ahead of the reads (docs/performance.md has the measurements).
///
/// Every result is the sum over the depth in order, one fused multiply-add per term where the build
/// has FMA (`multiplyAdd`), then `+ bias`, then the activation, as `addBiasAndActivate` does.
func packedGEMM(
    _ a: PackedMatrix, panels: Range<Int>, b: UnsafeBufferPointer<GEMMInputRows>, columns: Int,
    c: UnsafeMutablePointer<Float>, rowStride: Int, epilogue: GEMMEpilogue, prefetching: GEMMPrefetch = []
) {
    precondition(b.reduce(0) { $0 + $1.count } == a.depth, "GEMM: B has \(b.map(\.count)) rows for A's depth \(a.depth)")
    precondition(panels.lowerBound >= 0 && panels.upperBound <= a.panels, "GEMM: panels \(panels) of \(a.panels)")
    let lanes = FloatVector.scalarCount, panelRows = PackedMatrix.panelRows
    a.storage.withUnsafeBufferPointer { storage in
        guard let packed = storage.baseAddress else { return }
        func panelStart(_ panel: Int) -> UnsafePointer<Float> { packed + a.panelOffset(panel) }
        func storedRows(_ panel: Int) -> Int { min(panelRows, a.rows - panel * panelRows) }
        let rows = (panels.lowerBound * panelRows)..<min(a.rows, panels.upperBound * panelRows)
        // The activation over the block once every panel has stored into it.
        defer {
            if epilogue.activation == .silu {
                siluInPlace(rows: rows, columns: columns, of: c, rowStride: rowStride)
            }
        }
        let tiles = columns / (2 * lanes), wholeTiles = tiles * 2 * lanes
        // The panels run in groups of what one tile multiplies: a panel, or up to three (24 rows, four
        // passes) where the kernel set's passes are six rows.
        let panelsPerGroup = microkernelRows == 6 ? 3 : 1
        func group(at panel: Int) -> Range<Int> { panel..<min(panel + panelsPerGroup, panels.upperBound) }
        // The filters' lines: the first group's now, then a share of the next group's before each tile.
        let prefetchesFilters = prefetching.contains(.filters) && tiles > 0
        let panelFloats = a.depth * panelRows
        func prefetchFilters(of group: Range<Int>, floats: Range<Int>) {
            var first = floats.lowerBound
            while first < floats.upperBound {
                let (panel, offset) = first.quotientAndRemainder(dividingBy: panelFloats)
                let count = min(floats.upperBound - first, panelFloats - offset)
                prefetch(panelStart(group.lowerBound + panel) + offset, count: count)
                first += count
            }
        }
        if prefetchesFilters {
            let first = group(at: panels.lowerBound)
            prefetchFilters(of: first, floats: 0..<(first.count * panelFloats))
        }
        for panel in stride(from: panels.lowerBound, to: panels.upperBound, by: panelsPerGroup) {
            let panelGroup = group(at: panel)
            // The first group is the first to read this block of B: it asks for the next tile's lines.
            let prefetchesRows = prefetching.contains(.inputRows) && panel == panels.lowerBound
            let nextGroup = prefetchesFilters && panelGroup.upperBound < panels.upperBound ? group(at: panelGroup.upperBound) : nil
            let nextGroupFloats = (nextGroup?.count ?? 0) * panelFloats, filterShare = (nextGroupFloats + tiles - 1) / max(tiles, 1)
            let rows = panelGroup.reduce(0) { $0 + storedRows($1) }
            for tileIndex in 0..<tiles {
                if let nextGroup, tileIndex * filterShare < nextGroupFloats {
                    prefetchFilters(of: nextGroup, floats: (tileIndex * filterShare)..<min(nextGroupFloats, (tileIndex + 1) * filterShare))
                }
                let column = tileIndex * 2 * lanes
                let tile = Tile(b: b, column: column, c: c + panel * panelRows * rowStride + column, rowStride: rowStride,
                                firstRow: panel * panelRows, rows: rows, epilogue: epilogue, prefetchingRows: prefetchesRows)
                if panelGroup.count > 1 {
                    multiplyPanelsInSixRowPasses(panelStart(panel), count: panelGroup.count, panelStride: a.panelStride, tile)
                } else {
                    multiplyPanelByTwoVectors(panelStart(panel), tile)
                }
            }
        }
        var column = wholeTiles
        if column + lanes <= columns {
            for panel in panels {
                multiplyPanelByVector(panelStart(panel), b, column: column, into: c + panel * panelRows * rowStride + column,
                                      rowStride: rowStride, firstRow: panel * panelRows, rows: storedRows(panel),
                                      columns: lanes, epilogue: epilogue)
            }
            column += lanes
        }
        guard column < columns else { return }
        // The last few columns: B's share of them zero-padded to a whole vector.
        let remaining = columns - column
        withUnsafeTemporaryAllocation(of: Float.self, capacity: a.depth * lanes) { padded in
            let base = padded.baseAddress!
            base.initialize(repeating: 0, count: a.depth * lanes)
            var row = 0
            for piece in b {
                for r in 0..<piece.count {
                    (base + (row + r) * lanes).update(from: piece.first + r * piece.stride + column, count: remaining)
                }
                row += piece.count
            }
            var paddedRows = GEMMInputRows(first: base, count: a.depth, stride: lanes)
            withUnsafeMutablePointer(to: &paddedRows) { pointer in
                let source = UnsafeBufferPointer(start: pointer, count: 1)
                for panel in panels {
                    multiplyPanelByVector(panelStart(panel), source, column: 0, into: c + panel * panelRows * rowStride + column,
                                          rowStride: rowStride, firstRow: panel * panelRows, rows: storedRows(panel),
                                          columns: remaining, epilogue: epilogue)
                }
            }
        }
    }
}

/// `packedGEMM` with `B` one block of rows.
func packedGEMM(
    _ a: PackedMatrix, panels: Range<Int>, b: UnsafePointer<Float>, bRowStride: Int, columns: Int,
    c: UnsafeMutablePointer<Float>, rowStride: Int, epilogue: GEMMEpilogue, prefetching: GEMMPrefetch = []
) {
    var rows = GEMMInputRows(first: b, count: a.depth, stride: bRowStride)
    withUnsafeMutablePointer(to: &rows) { pointer in
        packedGEMM(a, panels: panels, b: UnsafeBufferPointer(start: pointer, count: 1), columns: columns,
                   c: c, rowStride: rowStride, epilogue: epilogue, prefetching: prefetching)
    }
}

/// A tile of `C` two vectors wide and the `B` it reads: two vectors from `column` of each of `B`'s
/// rows, into `c` (the tile's first row, row `firstRow` of the product; the next `rowStride` floats
/// on), of which the first `rows` rows are stored — what every pass of the micro-kernel is given.
private struct Tile {
    let b: UnsafeBufferPointer<GEMMInputRows>
    let column: Int
    let c: UnsafeMutablePointer<Float>
    let rowStride: Int
    let firstRow: Int
    let rows: Int
    let epilogue: GEMMEpilogue
    let prefetchingRows: Bool

    /// The tile from its row `offset` on.
    func rows(from offset: Int) -> Tile {
        Tile(b: b, column: column, c: c + offset * rowStride, rowStride: rowStride, firstRow: firstRow + offset,
             rows: rows - offset, epilogue: epilogue, prefetchingRows: prefetchingRows)
    }
}

/// One 8-row panel of `A` times a tile: one pass where 32 registers hold the 16 accumulators beside
/// the loads (`microkernelRows` 8), else two passes of 4 rows.
@inline(__always)
private func multiplyPanelByTwoVectors(_ panel: UnsafePointer<Float>, _ tile: Tile) {
    multiplyFourOrEightRows(panel, tile)
    guard microkernelRows != 8, tile.rows > 4 else { return }
    multiplyFourOrEightRows(panel + 4, tile.rows(from: 4))
}

/// Two or three 8-row panels of `A` (`panelStride` floats apart) times a tile, in passes of six
/// rows, where a pass may take the end of one panel and the start of the next: three panels as 6 +
/// 6 + 6 + 6 rows, two as 6 + 6 + 4.
@inline(__always)
private func multiplyPanelsInSixRowPasses(_ panel: UnsafePointer<Float>, count: Int, panelStride: Int, _ tile: Tile) {
    let (second, third) = (panel + panelStride, panel + 2 * panelStride)
    multiplySixRowsOfOnePanel(panel, tile)
    multiplySixRowsTwoThenFour(panel + 6, secondRows: second - 2, tile.rows(from: 6))
    guard tile.rows > 12 else { return }
    guard count == 3 else { return multiplyFourOrEightRows(second + 4, tile.rows(from: 12)) }
    multiplySixRowsFourThenTwo(second + 4, secondRows: third - 4, tile.rows(from: 12))
    guard tile.rows > 18 else { return }
    multiplySixRowsOfOnePanel(third + 2, tile.rows(from: 18))
}

// The passes, each specialized for its rows and compiled on its own: inlined into `packedGEMM` with
// the others, the whole grows past what the optimizer inlines into, and the loads of `B` stay calls.

/// 8 rows of a panel where `microkernelRows` is 8, else 4.
@inline(never)
private func multiplyFourOrEightRows(_ panel: UnsafePointer<Float>, _ tile: Tile) {
    multiplyRows(panel, rowCount: microkernelRows == 8 ? 8 : 4, rowsFromFirst: 8, secondRows: panel, tile)
}

/// Six rows of one panel.
@inline(never)
private func multiplySixRowsOfOnePanel(_ panel: UnsafePointer<Float>, _ tile: Tile) {
    multiplyRows(panel, rowCount: 6, rowsFromFirst: 6, secondRows: panel, tile)
}

/// The last two rows of one panel and the first four of the next.
@inline(never)
private func multiplySixRowsTwoThenFour(_ panel: UnsafePointer<Float>, secondRows: UnsafePointer<Float>, _ tile: Tile) {
    multiplyRows(panel, rowCount: 6, rowsFromFirst: 2, secondRows: secondRows, tile)
}

/// The last four rows of one panel and the first two of the next.
@inline(never)
private func multiplySixRowsFourThenTwo(_ panel: UnsafePointer<Float>, secondRows: UnsafePointer<Float>, _ tile: Tile) {
    multiplyRows(panel, rowCount: 6, rowsFromFirst: 4, secondRows: secondRows, tile)
}

/// `rowCount` rows of `A` (4, 6 or 8: a constant where it is inlined, so that the unused
/// accumulators go) times a tile: row `r` read at `panel[r]` for the first `rowsFromFirst`, the
/// others at `secondRows[r]` (both stepping `PackedMatrix.panelRows` floats).
@inline(__always)
private func multiplyRows(_ panel: UnsafePointer<Float>, rowCount: Int, rowsFromFirst: Int, secondRows: UnsafePointer<Float>,
                          _ tile: Tile) {
    var c00 = FloatVector(), c01 = FloatVector(), c10 = FloatVector(), c11 = FloatVector()
    var c20 = FloatVector(), c21 = FloatVector(), c30 = FloatVector(), c31 = FloatVector()
    var c40 = FloatVector(), c41 = FloatVector(), c50 = FloatVector(), c51 = FloatVector()
    var c60 = FloatVector(), c61 = FloatVector(), c70 = FloatVector(), c71 = FloatVector()
    let lanes = FloatVector.scalarCount, secondOffset = secondRows - panel, prefetchingRows = tile.prefetchingRows
    forEachStep(panel, tile.b, column: tile.column) { a, row in
        let b0 = row.loadUnaligned(as: FloatVector.self)
        let b1 = row.loadUnaligned(fromByteOffset: lanes * MemoryLayout<Float>.stride, as: FloatVector.self)
        if prefetchingRows {
            prefetchLine(row + 2 * lanes * MemoryLayout<Float>.stride)
            prefetchLine(row + 3 * lanes * MemoryLayout<Float>.stride)
        }
        let second = a + secondOffset
        @inline(__always) func weight(_ r: Int) -> FloatVector { FloatVector(repeating: r < rowsFromFirst ? a[r] : second[r]) }
        var w = weight(0); c00 = multiplyAdd(w, b0, c00); c01 = multiplyAdd(w, b1, c01)
        w = weight(1); c10 = multiplyAdd(w, b0, c10); c11 = multiplyAdd(w, b1, c11)
        w = weight(2); c20 = multiplyAdd(w, b0, c20); c21 = multiplyAdd(w, b1, c21)
        w = weight(3); c30 = multiplyAdd(w, b0, c30); c31 = multiplyAdd(w, b1, c31)
        guard rowCount > 4 else { return }
        w = weight(4); c40 = multiplyAdd(w, b0, c40); c41 = multiplyAdd(w, b1, c41)
        w = weight(5); c50 = multiplyAdd(w, b0, c50); c51 = multiplyAdd(w, b1, c51)
        guard rowCount > 6 else { return }
        w = weight(6); c60 = multiplyAdd(w, b0, c60); c61 = multiplyAdd(w, b1, c61)
        w = weight(7); c70 = multiplyAdd(w, b0, c70); c71 = multiplyAdd(w, b1, c71)
    }
    @inline(__always) func store(_ r: Int, _ left: FloatVector, _ right: FloatVector) {
        guard r < tile.rows else { return }
        let destination = tile.c + r * tile.rowStride
        storeResult(left, row: tile.firstRow + r, into: destination, columns: lanes, epilogue: tile.epilogue)
        storeResult(right, row: tile.firstRow + r, into: destination + lanes, columns: lanes, epilogue: tile.epilogue)
    }
    store(0, c00, c01); store(1, c10, c11); store(2, c20, c21); store(3, c30, c31)
    guard rowCount > 4 else { return }
    store(4, c40, c41); store(5, c50, c51)
    guard rowCount > 6 else { return }
    store(6, c60, c61); store(7, c70, c71)
}

/// One 8-row panel of `A` times one vector of columns of `B`, of which the first `columns` are
/// stored.
@inline(never)
private func multiplyPanelByVector(
    _ panel: UnsafePointer<Float>, _ b: UnsafeBufferPointer<GEMMInputRows>, column: Int,
    into c: UnsafeMutablePointer<Float>, rowStride: Int, firstRow: Int, rows: Int, columns: Int, epilogue: GEMMEpilogue
) {
    var c0 = FloatVector(), c1 = FloatVector(), c2 = FloatVector(), c3 = FloatVector()
    var c4 = FloatVector(), c5 = FloatVector(), c6 = FloatVector(), c7 = FloatVector()
    forEachStep(panel, b, column: column) { a, row in
        let b0 = row.loadUnaligned(as: FloatVector.self)
        c0 = multiplyAdd(FloatVector(repeating: a[0]), b0, c0)
        c1 = multiplyAdd(FloatVector(repeating: a[1]), b0, c1)
        c2 = multiplyAdd(FloatVector(repeating: a[2]), b0, c2)
        c3 = multiplyAdd(FloatVector(repeating: a[3]), b0, c3)
        c4 = multiplyAdd(FloatVector(repeating: a[4]), b0, c4)
        c5 = multiplyAdd(FloatVector(repeating: a[5]), b0, c5)
        c6 = multiplyAdd(FloatVector(repeating: a[6]), b0, c6)
        c7 = multiplyAdd(FloatVector(repeating: a[7]), b0, c7)
    }
    @inline(__always) func store(_ r: Int, _ values: FloatVector) {
        guard r < rows else { return }
        storeResult(values, row: firstRow + r, into: c + r * rowStride, columns: columns, epilogue: epilogue)
    }
    store(0, c0); store(1, c1); store(2, c2); store(3, c3); store(4, c4); store(5, c5); store(6, c6); store(7, c7)
}

/// The steps down the depth of one microkernel call: `body(a, row)` for each row of `B` in turn
/// (piece by piece), `a` at that step's `PackedMatrix.panelRows` floats of the panel and `row` at
/// the row's floats from `column`.
@inline(__always)
private func forEachStep(_ panel: UnsafePointer<Float>, _ b: UnsafeBufferPointer<GEMMInputRows>, column: Int,
                         _ body: (_ a: UnsafePointer<Float>, _ row: UnsafeRawPointer) -> Void) {
    var a = panel
    let step = PackedMatrix.panelRows
    for piece in b {
        var row = UnsafeRawPointer(piece.first + column)
        let stride = piece.stride * MemoryLayout<Float>.stride
        for _ in 0..<piece.count {
            body(a, row)
            a += step
            row += stride
        }
    }
}

/// Stores the first `columns` lanes of one vector of results of row `row`, plus what the epilogue
/// adds before the activation (which follows over the whole strip).
@inline(__always)
private func storeResult(_ values: FloatVector, row: Int, into destination: UnsafeMutablePointer<Float>,
                         columns: Int, epilogue: GEMMEpilogue) {
    var values = values
    switch epilogue {
    case .none: break
    case let .biasActivation(bias, _): values += FloatVector(repeating: bias[row])
    case let .accumulateBiasActivation(bias, _): values = accumulated(values, held: destination, columns: columns, bias: bias[row])
    }
    if columns == FloatVector.scalarCount {
        UnsafeMutableRawPointer(destination).storeBytes(of: values, as: FloatVector.self)
    } else {
        for lane in 0..<columns { destination[lane] = values[lane] }
    }
}

/// `(held + values) + bias`, `held` the first `columns` floats at `destination` (the others 0). Not
/// inlined: the microkernels' other epilogues then keep their code as tight as without it.
@inline(never)
private func accumulated(_ values: FloatVector, held destination: UnsafePointer<Float>, columns: Int, bias: Float) -> FloatVector {
    var held = FloatVector()
    if columns == FloatVector.scalarCount {
        held = UnsafeRawPointer(destination).loadUnaligned(as: FloatVector.self)
    } else {
        for lane in 0..<columns { held[lane] = destination[lane] }
    }
    return (held + values) + FloatVector(repeating: bias)
}

/// SiLU in place over `rows` rows of `columns` floats, `rowStride` apart from `matrix`'s row 0: one
/// loop, so that the vectorized exponential is inlined once and not into every store of the
/// microkernels; the floats past a row's last whole vector go through `siluInPlace(_:count:)`.
@inline(never)
private func siluInPlace(rows: Range<Int>, columns: Int, of matrix: UnsafeMutablePointer<Float>, rowStride: Int) {
    let lanes = FloatVector.scalarCount, wholeVectors = columns / lanes * lanes
    for row in rows {
        let values = UnsafeMutableRawPointer(matrix + row * rowStride)
        for offset in stride(from: 0, to: wholeVectors * MemoryLayout<Float>.stride, by: lanes * MemoryLayout<Float>.stride) {
            values.storeBytes(of: vectorSiLU(values.loadUnaligned(fromByteOffset: offset, as: FloatVector.self)),
                              toByteOffset: offset, as: FloatVector.self)
        }
        if wholeVectors < columns { siluInPlace(matrix + row * rowStride + wholeVectors, count: columns - wholeVectors) }
    }
}
