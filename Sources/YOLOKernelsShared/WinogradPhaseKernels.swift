import YOLOKernels
import YOLOTensor

/// The stride-2 input transform of `WinogradConvolution`: F(4×4, 2×2) over the input's even phase.
extension WinogradConvolution {
    /// `V = Bᵀ d B` for the 5×5 tiles of the even phase `P[i][j] = p[2i][2j]` (`p` the zero-padded
    /// input) of input channels `channels` (all, or a share's), every tile of the block:
    /// `transformed[ξ · planeStride + (c − channels.lowerBound) · tiles + tile]`, the line after each
    /// plane's last channel zeroed first. Whole vectors are stored, as in `transformTiles`.
    ///
    /// Tile `(i, j)` reads `P`'s rows `4i + s` and columns `4j + t`, `s, t < 5`: each of `P`'s rows,
    /// the input's odd columns of one of its rows (`everyOtherColumn`), is split into four column phases
    /// as `transformTiles` splits a row, and the tile's column `t` is phase `t mod 4` at index `j`
    /// (`j + 1` for `t = 4`): neighbouring tiles are neighbouring floats.
    func transformPhaseTiles(_ input: UnsafePointer<Float>, height: Int, width: Int, channels: Range<Int>, firstTileRow: Int,
                             tileRows: Int, tileColumns: Int, buffers: BlockBuffers, into transformed: UnsafeMutablePointer<Float>) {
        let tiles = tileRows * tileColumns, planeStride = buffers.transformedStride
        for xi in 0..<25 { (transformed + xi * planeStride + channels.count * tiles).update(repeating: 0, count: 16) }
        let phaseWidth = buffers.splitWidth, rowCount = buffers.splitRows
        let oddCount = width / 2
        precondition(oddCount + 16 <= buffers.oddRowFloats, "a row of \(width) for \(tileColumns) tiles")
        let splitTensor = Tensor(uninitializedShape: [buffers.splitFloats])
        let split = splitTensor.data, odd = split + rowCount * 4 * phaseWidth
        // d B of one vector of tiles: 5 × 5 vectors (`FivePoints.transformGroup`).
        let rows = UnsafeMutableRawPointer.allocate(byteCount: 25 * 64, alignment: 64)
        defer {
            rows.deallocate()
            withExtendedLifetime(splitTensor) {}
        }
        // Split row r is P's row 4 · firstTileRow + r: padded row 2(4 · firstTileRow + r), input row
        // firstRow + 2r.
        let firstRow = 8 * firstTileRow - 1
        // Every channel writes the same positions, so the padding cleared here stays zero.
        split.update(repeating: 0, count: rowCount * 4 * phaseWidth)
        for c in channels {
            let plane = input + c * height * width
            for r in 0..<rowCount where firstRow + 2 * r >= 0 && firstRow + 2 * r < height {
                let source = plane + (firstRow + 2 * r) * width
                // The next channel's row asked for ahead, as in `PhaseSplitConvolution`.
                if c + 1 < channels.upperBound { prefetch(source + height * width, count: width) }
                everyOtherColumn(source, width: width, from: 1, into: odd)
                splitIntoPhases(odd, width: oddCount, into: split + 4 * r * phaseWidth, phaseWidth: phaseWidth)
            }
            // Tile rows in order: a row's stores past its last tile land in the next row, or the
            // next channel's first, each written after.
            let destination = UnsafeMutableRawPointer(transformed + (c - channels.lowerBound) * tiles)
            for tileRow in 0..<tileRows {
                let rowBase = UnsafeRawPointer(split + 4 * 4 * tileRow * phaseWidth)
                transformTileRow(FivePoints.self, rowBase, tileColumns: tileColumns, phaseWidth: phaseWidth, rows: rows,
                                 into: destination + 4 * tileRow * tileColumns, planeStride: planeStride)
            }
        }
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
enum FivePoints: WinogradPoints {
    /// `V = Bᵀ d B` for one vector of neighbouring tiles (`V.scalarCount` of them): their five rows are
    /// the split rows from `phases` on (4 · phaseWidth floats a row), their columns `t` the column
    /// phases `t mod 4` (index + 1 for t = 4); into the 25 planes at `destination`, `planeStride` floats
    /// apart. d B goes through `rows`, as in `SixPoints.transformGroup`.
    @inline(__always)
    static func transformGroup<V: TileVector>(_: V.Type, _ phases: UnsafeRawPointer, phaseWidth: Int, rows: UnsafeMutableRawPointer,
                                              into destination: UnsafeMutableRawPointer, planeStride: Int) {
        let size = MemoryLayout<V>.size
        for s in 0..<5 {
            let row = phases + 4 &* (4 &* s &* phaseWidth)
            @inline(__always) func d(_ phase: Int, _ offset: Int) -> V {
                row.loadUnaligned(fromByteOffset: 4 &* (phase &* phaseWidth &+ offset), as: V.self)
            }
            store(inputTransform((d(0, 0), d(1, 0), d(2, 0), d(3, 0), d(0, 1))), at: rows + 5 &* size &* s, stride: size)
        }
        // Column t of Bᵀ (d B) is Bᵀ applied to column t of d B: ξ = 5s + t.
        let planeBytes = 4 &* planeStride, stride = 5 &* planeBytes
        for t in 0..<5 {
            @inline(__always) func dB(_ s: Int) -> V { rows.load(fromByteOffset: size &* (5 &* s &+ t), as: V.self) }
            store(inputTransform((dB(0), dB(1), dB(2), dB(3), dB(4))), at: destination + t &* planeBytes, stride: stride)
        }
    }

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
