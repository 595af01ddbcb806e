import YOLOKernels
import YOLOTensor

/// The stride-2 input transform of `WinogradConvolution`: F(4×4, 2×2) over the input's even phase.
extension WinogradConvolution {
    /// `V = Bᵀ d B` for the 5×5 tiles of the even phase `P[i][j] = p[2i][2j]` (`p` the zero-padded
    /// input) of input channels `channels` (all, or a share's), every tile of the block:
    /// `transformed[ξ · planeStride + (c − channels.lowerBound) · tiles + tile]`, the line after each
    /// plane's last channel zeroed first. Whole vectors are stored, as in `transformTiles`.
    ///
    /// Tile `(i, j)` reads the padded input's rows `8i + 2s` and columns `8j + 2t`, `s, t < 5`. So
    /// each even padded row is first split into its eight column phases (`splitIntoEightPhases`):
    /// column `8j + k` at index `j` of phase `k`, and the tile's column `t` is phase `2t mod 8` at
    /// index `j`, or `j + 1` for `t = 4`: neighbouring tiles are neighbouring floats.
    func transformPhaseTiles(_ input: UnsafePointer<Float>, height: Int, width: Int, channels: Range<Int>, firstTileRow: Int,
                             tileRows: Int, tileColumns: Int, buffers: BlockBuffers, into transformed: UnsafeMutablePointer<Float>) {
        let tiles = tileRows * tileColumns, planeStride = buffers.transformedStride
        for xi in 0..<25 { (transformed + xi * planeStride + channels.count * tiles).update(repeating: 0, count: 16) }
        let phaseWidth = buffers.splitWidth, rowCount = buffers.splitRows
        let splitTensor = Tensor(uninitializedShape: [rowCount, 8, phaseWidth])
        let split = splitTensor.data
        // d B of one vector of tiles: 5 × 5 vectors (`transformPhaseGroup`).
        let rows = UnsafeMutableRawPointer.allocate(byteCount: 25 * 64, alignment: 64)
        defer {
            rows.deallocate()
            withExtendedLifetime(splitTensor) {}
        }
        // Split row r is padded row 8 · firstTileRow + r, input row firstRow + r; only the even
        // ones are read.
        let firstRow = 8 * firstTileRow - 1
        // Every channel writes the same positions, so the padding cleared here stays zero.
        split.update(repeating: 0, count: 8 * rowCount * phaseWidth)
        for c in channels {
            let plane = input + c * height * width
            for r in Swift.stride(from: 0, to: rowCount, by: 2) where firstRow + r >= 0 && firstRow + r < height {
                // The next channel's row asked for ahead, as in `PhaseSplitConvolution`.
                if c + 1 < channels.upperBound { prefetch(plane + (height + firstRow + r) * width, count: width) }
                splitIntoEightPhases(plane + (firstRow + r) * width, width: width, into: split + 8 * r * phaseWidth, phaseWidth: phaseWidth)
            }
            // Tile rows in order: a row's stores past its last tile land in the next row, or the
            // next channel's first, each written after.
            let destination = UnsafeMutableRawPointer(transformed + (c - channels.lowerBound) * tiles)
            for tileRow in 0..<tileRows {
                let rowBase = UnsafeRawPointer(split + 8 * 8 * tileRow * phaseWidth)
                let destinationRow = destination + 4 * tileRow * tileColumns
                var column = 0
                while column < tileColumns {
                    if tileColumns - column > 8 {
                        transformPhaseGroup(SIMD16<Float>.self, rowBase + 4 * column, phaseWidth: phaseWidth, rows: rows,
                                            into: destinationRow + 4 * column, planeStride: planeStride)
                        column += 16
                    } else {
                        transformPhaseGroup(SIMD8<Float>.self, rowBase + 4 * column, phaseWidth: phaseWidth, rows: rows,
                                            into: destinationRow + 4 * column, planeStride: planeStride)
                        column += 8
                    }
                }
            }
        }
    }
}

/// `V = Bᵀ d B` for one vector of neighbouring tiles (`V.scalarCount` of them): their five rows are
/// split rows 0, 2, 4, 6 and 8 from `phases` (8 · phaseWidth floats a split row), their columns `t`
/// the column phases `2t` (0 at index + 1 for t = 4); into the 25 planes at `destination`,
/// `planeStride` floats apart. d B goes through `rows`, as in `transformGroup`.
@inline(__always)
private func transformPhaseGroup<V: TileVector>(_: V.Type, _ phases: UnsafeRawPointer, phaseWidth: Int,
                                                rows: UnsafeMutableRawPointer, into destination: UnsafeMutableRawPointer,
                                                planeStride: Int) {
    let size = MemoryLayout<V>.size
    for s in 0..<5 {
        let row = phases + 4 &* (8 &* 2 &* s &* phaseWidth)
        @inline(__always) func d(_ phase: Int, _ offset: Int) -> V {
            row.loadUnaligned(fromByteOffset: 4 &* (phase &* phaseWidth &+ offset), as: V.self)
        }
        store(inputTransform((d(0, 0), d(2, 0), d(4, 0), d(6, 0), d(0, 1))), at: rows + 5 &* size &* s, stride: size)
    }
    // Column t of Bᵀ (d B) is Bᵀ applied to column t of d B: ξ = 5s + t.
    let planeBytes = 4 &* planeStride, stride = 5 &* planeBytes
    for t in 0..<5 {
        @inline(__always) func dB(_ s: Int) -> V { rows.load(fromByteOffset: size &* (5 &* s &+ t), as: V.self) }
        store(inputTransform((dB(0), dB(1), dB(2), dB(3), dB(4))), at: destination + t &* planeBytes, stride: stride)
    }
}

/// The five vectors `values` at `destination`, `stride` bytes apart.
@inline(__always)
private func store<V: SIMD>(_ values: (V, V, V, V, V), at destination: UnsafeMutableRawPointer, stride: Int) {
    destination.storeBytes(of: values.0, as: V.self)
    destination.storeBytes(of: values.1, toByteOffset: stride, as: V.self)
    destination.storeBytes(of: values.2, toByteOffset: 2 &* stride, as: V.self)
    destination.storeBytes(of: values.3, toByteOffset: 3 &* stride, as: V.self)
    destination.storeBytes(of: values.4, toByteOffset: 4 &* stride, as: V.self)
}

/// `Bᵀ d` for five values `d` (a column of a tile, or a row times B), with `Bᵀ` of the points 0, ½,
/// −1, 2, ∞ (`WinogradConvolution`): every weight a sum of powers of two.
@inline(__always)
private func inputTransform<V: TileVector>(_ d: (V, V, V, V, V)) -> (V, V, V, V, V) {
    @inline(__always) func c(_ value: Float) -> V { V(repeating: value) }
    return (V.multiplyAdd(c(-1.5), d.1 + d.2, d.0 + d.3),
            V.multiplyAdd(c(0.5), d.2 - d.3, d.1),
            V.multiplyAdd(c(2.5), d.2, -(d.1 + d.3)),
            V.multiplyAdd(c(0.5), d.2 - d.1, d.3),
            V.multiplyAdd(c(-1.5), d.2 + d.3, d.1 + d.4))
}

/// F(4×4, 2×2)'s five points (0, ½, −1, 2, ∞).
enum FivePoints: OutputPoints {
    @inline(__always)
    static func outputColumns(_ source: UnsafePointer<Float>, planeStride: Int) -> (Four, Four, Four, Four) {
        // Row s of M times A, for the five rows; then Aᵀ down each of the four columns.
        @inline(__always) func rowTimesA(_ s: Int) -> Four {
            @inline(__always) func m(_ t: Int) -> SIMD8<Float> {
                UnsafeRawPointer(source + (5 * s + t) * planeStride).loadUnaligned(as: SIMD8<Float>.self)
            }
            return outputTransform((m(0), m(1), m(2), m(3), m(4)))
        }
        let (r0, r1, r2, r3, r4) = (rowTimesA(0), rowTimesA(1), rowTimesA(2), rowTimesA(3), rowTimesA(4))
        return (outputTransform((r0.0, r1.0, r2.0, r3.0, r4.0)), outputTransform((r0.1, r1.1, r2.1, r3.1, r4.1)),
                outputTransform((r0.2, r1.2, r2.2, r3.2, r4.2)), outputTransform((r0.3, r1.3, r2.3, r3.3, r4.3)))
    }

    /// `Aᵀ m` for five values `m`: four. (Every weight is a power of two, so only the sums round.)
    @inline(__always)
    private static func outputTransform(_ m: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)) -> Four {
        (m.0 + m.1 + m.2 + m.3,
         0.5 * m.1 - m.2 + 2 * m.3,
         0.25 * m.1 + m.2 + 4 * m.3,
         0.125 * m.1 - m.2 + 8 * m.3 + m.4)
    }
}

/// The columns of one input row by phase modulo 8: `phases[k · phaseWidth + m] = row[8m + k − 1]`
/// (the padded row's column 8m + k), for the row's `width` columns; the other entries are left
/// alone.
///
/// Thirty-two columns at a time, from column 0: of the columns x … x + 31, those j, j + 8, j + 16
/// and j + 24 after x go to phase (x + 1 + j) mod 8, four neighbours from index (x + 1 + j) / 8. The
/// last thirty-two end at the row's end, overlapping the ones before, as in `splitIntoPhases`.
@inline(__always)
private func splitIntoEightPhases(_ row: UnsafePointer<Float>, width: Int, into phases: UnsafeMutablePointer<Float>, phaseWidth: Int) {
    guard width >= 32 else {
        for x in 0..<width { phases[((x &+ 1) & 7) &* phaseWidth &+ ((x &+ 1) >> 3)] = row[x] }
        return
    }
    let raw = UnsafeMutableRawPointer(phases)
    @inline(__always) func split(_ x: Int) {
        let block = UnsafeRawPointer(row + x).loadUnaligned(as: SIMD32<Float>.self)
        let (evens, odds) = (block.evenHalf, block.oddHalf)
        let (j0mod4, j2mod4, j1mod4, j3mod4) = (evens.evenHalf, evens.oddHalf, odds.evenHalf, odds.oddHalf)
        @inline(__always) func store(_ j: Int, _ columns: SIMD4<Float>) {
            let padded = x &+ 1 &+ j
            raw.storeBytes(of: columns, toByteOffset: 4 &* ((padded & 7) &* phaseWidth &+ (padded >> 3)), as: SIMD4<Float>.self)
        }
        store(0, j0mod4.evenHalf)
        store(4, j0mod4.oddHalf)
        store(2, j2mod4.evenHalf)
        store(6, j2mod4.oddHalf)
        store(1, j1mod4.evenHalf)
        store(5, j1mod4.oddHalf)
        store(3, j3mod4.evenHalf)
        store(7, j3mod4.oddHalf)
    }
    var x = 0
    while x &+ 32 < width {
        split(x)
        x &+= 32
    }
    split(width &- 32)
}
