import YOLOKernels
import YOLOTensor

/// The compute of `WinogradConvolution` in this kernel set: input transform, the GEMMs (36 at
/// stride 1, 25 at stride 2) and the output transform, block by block.
extension WinogradConvolution {
    /// `output = act(conv3×3(input) + bias)` (`+ residual`, given one of the output's shape), `C_in`
    /// planes of `height × width` into `C_out` planes of the output's size (`outputSize`). With no
    /// `bias` (at stride 2: the corner taps), the sums are stored as they are.
    func run(_ input: UnsafePointer<Float>, height: Int, width: Int, bias: UnsafePointer<Float>?,
             activation: Activation, adding residual: UnsafePointer<Float>? = nil, into output: UnsafeMutablePointer<Float>) {
        let outputHeight = outputSize(height), outputWidth = outputSize(width)
        let tileRows = (outputHeight + 3) / 4, tileColumns = (outputWidth + 3) / 4, tiles = tileRows * tileColumns
        let lanes = FloatVector.scalarCount
        let threads = ComputeThreads.count, running = ComputeThreads.isInsideParallelFor ? 1 : threads
        // The buffers (`BlockBuffers`): a cache line (sixteen floats) after each V_ξ and M_ξ, eight
        // more after the last M_ξ: the transforms store and load whole vectors of tiles, also where a tile row ends in a partial
        // one. The line also staggers the 36 planes over the cache sets: unpadded, the output
        // transform's 36 loads per vector (one per plane, 4 KiB multiples apart at 64 channels of 240
        // tiles) all fell in one set of the 12-way first-level cache, and eight-float padding left
        // half of the input transform's vector stores split across lines.
        //
        // And the products run over whole vectors of tiles, also past the last tile: the columns
        // there are computed and never read, and no block's end goes through the GEMM's zero-padded
        // copy of its last columns (at 20 × 20, 25 tiles were a vector of 16 and a copied one of 9;
        // now a tile of 32). So `V_ξ`'s rows are read up to a vector past their end: into the next
        // row, and after the last row into its spare line, zeroed first (the input transform's
        // stores overwrite part of it).

        // The GEMMs, [C_out, depth] x [depth, tiles] -> [C_out, tiles], for the filters' panels
        // `panels`: `B` of `V_0` in `pieces` (one per share of the input channels), `V_ξ` the same
        // rows `transformedStride` floats on.
        func multiply(_ pieces: [GEMMInputRows], panels: Range<Int>, buffers: BlockBuffers,
                      into products: UnsafeMutablePointer<Float>, prefetching: GEMMPrefetch) {
            var b = pieces
            for (xi, weights) in transformedWeights.enumerated() {
                for (i, piece) in pieces.enumerated() {
                    b[i] = GEMMInputRows(first: piece.first + xi * buffers.transformedStride, count: piece.count, stride: piece.stride)
                }
                b.withUnsafeBufferPointer { b in
                    packedGEMM(weights, panels: panels, b: b, columns: buffers.productColumns, c: products + xi * buffers.productsStride,
                               rowStride: buffers.productRowStride, epilogue: .none, prefetching: prefetching)
                }
            }
        }
        // The bias, activation and residual over output channels `channels`' rows from tile row
        // `firstTileRow` on, still in cache.
        func finish(channels: Range<Int>, firstTileRow: Int, tileRows: Int) {
            guard let bias else { return }
            let firstRow = 4 * firstTileRow, rowCount = min(4 * tileRows, outputHeight - firstRow)
            for o in channels {
                let offset = (o * outputHeight + firstRow) * outputWidth
                addBiasAndActivate(output + offset, count: rowCount * outputWidth, bias: bias[o], activation: activation,
                                   adding: residual.map { $0 + offset })
            }
        }
        switch blocking(height: height, width: width, threads: threads, running: running) {
        case let .tileRows(blocks):
            ComputeThreads.parallelFor(blocks) { block in
                let blockRows = evenShare(block, of: blocks, count: tileRows)
                let firstTileRow = blockRows.lowerBound, rows = blockRows.count
                let buffers = buffers(tileRows: rows, tileColumns: tileColumns, shares: 1, lanes: lanes)
                let transformedTensor = Tensor(uninitializedShape: [buffers.transformedFloats])
                let productsTensor = Tensor(uninitializedShape: [buffers.productsFloats])
                let (transformed, products) = (transformedTensor.data, productsTensor.data)
                defer { withExtendedLifetime((transformedTensor, productsTensor)) {} }
                transformInput(input, height: height, width: width, channels: 0..<inputChannels, firstTileRow: firstTileRow,
                               tileRows: rows, tileColumns: tileColumns, buffers: buffers, into: transformed)
                multiply([GEMMInputRows(first: transformed, count: inputChannels, stride: rows * tileColumns)],
                         panels: 0..<transformedWeights[0].panels, buffers: buffers, into: products,
                         prefetching: GEMMPrefetch.filters(forBlock: block, threads: threads))
                transformOutput(products, height: outputHeight, width: outputWidth, channels: 0..<outputChannels,
                                firstTileRow: firstTileRow, tileRows: rows, tileColumns: tileColumns, buffers: buffers, into: output)
                finish(channels: 0..<outputChannels, firstTileRow: firstTileRow, tileRows: rows)
            }
        case let .channelShares(shares):
            let buffers = buffers(tileRows: tileRows, tileColumns: tileColumns, shares: shares, lanes: lanes)
            let transformedTensor = Tensor(uninitializedShape: [shares * buffers.transformedFloats])
            let productsTensor = Tensor(uninitializedShape: [buffers.productsFloats])
            let (transformed, products) = (transformedTensor.data, productsTensor.data)
            defer { withExtendedLifetime((transformedTensor, productsTensor)) {} }
            func channelShare(_ share: Int) -> Range<Int> { evenShare(share, of: shares, count: inputChannels) }
            ComputeThreads.parallelFor(shares) { share in
                transformInput(input, height: height, width: width, channels: channelShare(share), firstTileRow: 0,
                               tileRows: tileRows, tileColumns: tileColumns, buffers: buffers,
                               into: transformed + share * buffers.transformedFloats)
            }
            let pieces = (0..<shares).map { share in
                GEMMInputRows(first: transformed + share * buffers.transformedFloats, count: channelShare(share).count, stride: tiles)
            }
            let panelCount = transformedWeights[0].panels, panelRows = PackedMatrix.panelRows
            ComputeThreads.parallelFor(shares) { share in
                let panels = evenShare(share, of: shares, count: panelCount)
                let channels = (panels.lowerBound * panelRows)..<min(outputChannels, panels.upperBound * panelRows)
                multiply(pieces, panels: panels, buffers: buffers, into: products, prefetching: .filters)
                transformOutput(products, height: outputHeight, width: outputWidth, channels: channels, firstTileRow: 0,
                                tileRows: tileRows, tileColumns: tileColumns, buffers: buffers, into: output)
                finish(channels: channels, firstTileRow: 0, tileRows: tileRows)
            }
        }
    }

    /// `V = Bᵀ d B` for input channels `channels` (all, or a share's) and every tile of the block, at
    /// stride 1 (below) or 2 (`transformPhaseTiles`).
    private func transformInput(_ input: UnsafePointer<Float>, height: Int, width: Int, channels: Range<Int>, firstTileRow: Int,
                                tileRows: Int, tileColumns: Int, buffers: BlockBuffers, into transformed: UnsafeMutablePointer<Float>) {
        if stride == 1 {
            transformTiles(input, height: height, width: width, channels: channels, firstTileRow: firstTileRow, tileRows: tileRows,
                           tileColumns: tileColumns, buffers: buffers, into: transformed)
        } else {
            transformPhaseTiles(input, height: height, width: width, channels: channels, firstTileRow: firstTileRow,
                                tileRows: tileRows, tileColumns: tileColumns, buffers: buffers, into: transformed)
        }
    }

    /// `V = Bᵀ d B` of F(4×4, 3×3) for input channels `channels` and every tile of the block:
    /// `transformed[ξ · planeStride + (c − channels.lowerBound) · tiles + tile]`, the line after
    /// each plane's last channel zeroed first. Whole vectors are stored: those past a tile row's end
    /// are overwritten by the next row, the next channel, or land in that spare line.
    ///
    /// Sixteen tiles of a row at a time: each input row is first split into its four column phases
    /// (with the zero padding), so that the six columns of sixteen neighbouring tiles, which start
    /// four columns apart, are six contiguous vector loads. Vectors of sixteen rather than eight
    /// halve the arithmetic and the stores (the cores run 512-bit vectors at full rate), and a
    /// 64-byte store splits over two lines no more often than two 32-byte ones do; but a row's
    /// last eight tiles or fewer take a vector of eight, which stores half as much where most lanes
    /// are past the row's end (narrow rows, such as 20 wide with five tiles, are mostly that).
    private func transformTiles(_ input: UnsafePointer<Float>, height: Int, width: Int, channels: Range<Int>, firstTileRow: Int,
                                tileRows: Int, tileColumns: Int, buffers: BlockBuffers, into transformed: UnsafeMutablePointer<Float>) {
        let tiles = tileRows * tileColumns, planeStride = buffers.transformedStride
        for xi in 0..<36 { (transformed + xi * planeStride + channels.count * tiles).update(repeating: 0, count: 16) }
        let phaseWidth = buffers.splitWidth, rowCount = buffers.splitRows
        let splitTensor = Tensor(uninitializedShape: [rowCount, 4, phaseWidth])
        let split = splitTensor.data
        // d B of one vector of tiles: 6 × 6 vectors (`SixPoints.transformGroup`).
        let rows = UnsafeMutableRawPointer.allocate(byteCount: 36 * 64, alignment: 64)
        defer {
            rows.deallocate()
            withExtendedLifetime(splitTensor) {}
        }
        let firstRow = 4 * firstTileRow - 1
        // Every channel writes the same positions, so the padding cleared here stays zero.
        split.update(repeating: 0, count: 4 * rowCount * phaseWidth)
        for c in channels {
            let plane = input + c * height * width
            for r in 0..<rowCount where firstRow + r >= 0 && firstRow + r < height {
                // The next channel's row asked for ahead, as in `PhaseSplitConvolution`.
                if c + 1 < channels.upperBound { prefetch(plane + (height + firstRow + r) * width, count: width) }
                splitIntoPhases(plane + (firstRow + r) * width, width: width, into: split + 4 * r * phaseWidth, phaseWidth: phaseWidth)
            }
            for tileRow in 0..<tileRows {
                let rowBase = UnsafeRawPointer(split + 4 * (4 * tileRow) * phaseWidth)
                let destinationRow = UnsafeMutableRawPointer(transformed + (c - channels.lowerBound) * tiles + tileRow * tileColumns)
                transformTileRow(SixPoints.self, rowBase, tileColumns: tileColumns, phaseWidth: phaseWidth, rows: rows,
                                 into: destinationRow, planeStride: planeStride)
            }
        }
    }

    /// `Y = Aᵀ M A` for output channels `channels` and every tile of the block, written into their planes
    /// (the rows and columns of a tile past the image's end are dropped), eight tiles at a time:
    /// `M_ξ` of channel `o` and tile `t` at `products[ξ · planeStride + o · rowStride + t]`. Whole
    /// vectors are loaded; the lanes past a tile row's end are computed and dropped.
    ///
    /// An output row of eight tiles comes out as four vectors, one per tile column, and goes out
    /// interleaved, `(c0[0], c1[0], c2[0], c3[0], c0[1], …)`. Built from the computed vectors in
    /// registers, the interleave lets the compiler move its lane shuffles back through the
    /// arithmetic to the loads, and it scalarized most of the function (scalar adds, partial loads,
    /// spills). So the columns go through `scratch`: stored as vectors of eight, read back as two
    /// vectors of sixteen, `(c0, c1)` and `(c2, c3)`, each half row is then one two-source permute.
    /// The reads lag the stores by one group: a wide load of two narrower stores cannot be forwarded
    /// from the store buffer and waits for them to reach the cache, and reading a group's columns
    /// right back spent over 40% of the function's samples on those loads. A partial group (the
    /// last of a tile row, or at the image's right edge) is interleaved the same way, then its valid
    /// floats are copied (`copyPrefix`) rather than stored lane by lane.
    private func transformOutput(_ products: UnsafePointer<Float>, height: Int, width: Int, channels: Range<Int>, firstTileRow: Int,
                                 tileRows: Int, tileColumns: Int, buffers: BlockBuffers, into output: UnsafeMutablePointer<Float>) {
        if stride == 1 {
            transformOutput(SixPoints.self, products, height: height, width: width, channels: channels, firstTileRow: firstTileRow,
                            tileRows: tileRows, tileColumns: tileColumns, buffers: buffers, into: output)
        } else {
            transformOutput(FivePoints.self, products, height: height, width: width, channels: channels, firstTileRow: firstTileRow,
                            tileRows: tileRows, tileColumns: tileColumns, buffers: buffers, into: output)
        }
    }

    private func transformOutput<Points: WinogradPoints>(
        _: Points.Type, _ products: UnsafePointer<Float>, height: Int, width: Int, channels: Range<Int>, firstTileRow: Int,
        tileRows: Int, tileColumns: Int, buffers: BlockBuffers, into output: UnsafeMutablePointer<Float>
    ) {
        let planeStride = buffers.productsStride, rowStride = buffers.productRowStride
        // Two slots of a group's 16 columns (4 output rows × 4 columns, 128 bytes a row), then room
        // for one interleaved row of a partial group.
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: 2 * 512 + 128, alignment: 64)
        defer { scratch.deallocate() }
        // The previous group, whose columns wait in `scratch` at `slot`: the first of its output rows
        // in the plane, how many of its rows and of its floats per row are in the image.
        var pending = (destination: UnsafeMutableRawPointer?.none, rows: 0, count: 0, slot: 0)
        @inline(__always) func writePending() {
            guard let destination = pending.destination else { return }
            let columns = scratch + 512 * pending.slot
            for a in 0..<pending.rows {
                // Row a's columns read back as two halves, `(c0, c1)` and `(c2, c3)`.
                let p = columns.load(fromByteOffset: 128 * a, as: SIMD16<Float>.self)
                let q = columns.load(fromByteOffset: 128 * a + 64, as: SIMD16<Float>.self)
                let (low, high) = (interleaved(p, q, from: 0), interleaved(p, q, from: 4))
                let row = destination + 4 * a * width
                if pending.count == 32 {
                    row.storeBytes(of: low, as: SIMD16<Float>.self)
                    row.storeBytes(of: high, toByteOffset: 64, as: SIMD16<Float>.self)
                } else {
                    scratch.storeBytes(of: low, toByteOffset: 1024, as: SIMD16<Float>.self)
                    scratch.storeBytes(of: high, toByteOffset: 1024 + 64, as: SIMD16<Float>.self)
                    copyPrefix(pending.count, from: scratch + 1024, to: row)
                }
            }
        }
        var slot = 0  // where this group's columns go: the other slot holds the pending group's
        for o in channels {
            let plane = output + o * height * width
            for tileRow in 0..<tileRows {
                let y = 4 * (firstTileRow + tileRow)
                var column = 0
                while column < tileColumns {
                    let source = products + o * rowStride + tileRow * tileColumns + column
                    let tile = Points.outputColumns(source, planeStride: planeStride)
                    // Column b of the tiles' four output rows, stored at row a's 128 bytes + 32 b.
                    let columns = scratch + 512 * slot
                    @inline(__always) func store(_ b: Int, _ column: Four) {
                        columns.storeBytes(of: column.0, toByteOffset: 32 * b, as: SIMD8<Float>.self)
                        columns.storeBytes(of: column.1, toByteOffset: 128 + 32 * b, as: SIMD8<Float>.self)
                        columns.storeBytes(of: column.2, toByteOffset: 256 + 32 * b, as: SIMD8<Float>.self)
                        columns.storeBytes(of: column.3, toByteOffset: 384 + 32 * b, as: SIMD8<Float>.self)
                    }
                    store(0, tile.0)
                    store(1, tile.1)
                    store(2, tile.2)
                    store(3, tile.3)
                    writePending()
                    pending = (UnsafeMutableRawPointer(plane + y * width + 4 * column), min(4, height - y), min(32, width - 4 * column), slot)
                    slot ^= 1
                    column += 8
                }
            }
        }
        writePending()
    }
}

/// The six vectors `values` at `destination`, `stride` bytes apart.
@inline(__always)
private func store<V: SIMD>(_ values: (V, V, V, V, V, V), at destination: UnsafeMutableRawPointer, stride: Int) {
    destination.storeBytes(of: values.0, as: V.self)
    destination.storeBytes(of: values.1, toByteOffset: stride, as: V.self)
    destination.storeBytes(of: values.2, toByteOffset: 2 &* stride, as: V.self)
    destination.storeBytes(of: values.3, toByteOffset: 3 &* stride, as: V.self)
    destination.storeBytes(of: values.4, toByteOffset: 4 &* stride, as: V.self)
    destination.storeBytes(of: values.5, toByteOffset: 5 &* stride, as: V.self)
}

/// The vectors of tiles the input transform runs on: eight or sixteen floats, with the kernels'
/// `multiplyAdd` (fused or not, as built).
protocol TileVector: SIMD where Scalar == Float {
    static func multiplyAdd(_ a: Self, _ b: Self, _ c: Self) -> Self
}

extension SIMD8: TileVector where Scalar == Float {
    @inline(__always) static func multiplyAdd(_ a: Self, _ b: Self, _ c: Self) -> Self { laneMultiplyAdd(a, b, c) }
}

extension SIMD16: TileVector where Scalar == Float {
    @inline(__always) static func multiplyAdd(_ a: Self, _ b: Self, _ c: Self) -> Self { laneMultiplyAdd(a, b, c) }
}

private typealias Six = (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
/// Four vectors of eight tiles: a column of their 4×4 outputs, or a row.
typealias Four = (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)

/// The transforms of one Winograd form, by its number of points: the input transform of a vector
/// of neighbouring tiles of a tile row, and the output transform of eight.
protocol WinogradPoints {
    /// `V = Bᵀ d B` for `V.scalarCount` neighbouring tiles, from the split rows at `phases` (four
    /// column phases of `phaseWidth` floats a row) into the planes at `destination`, `planeStride`
    /// floats apart, through `rows` (a vector for each of the tile's values).
    static func transformGroup<V: TileVector>(_: V.Type, _ phases: UnsafeRawPointer, phaseWidth: Int, rows: UnsafeMutableRawPointer,
                                              into destination: UnsafeMutableRawPointer, planeStride: Int)
    /// The four columns of the tiles' 4×4 outputs (each four rows) from their `M_ξ` at `source`,
    /// `planeStride` floats apart.
    static func outputColumns(_ source: UnsafePointer<Float>, planeStride: Int) -> (Four, Four, Four, Four)
}

/// The input transform of a tile row's `tileColumns` tiles, sixteen at a time, a row's last eight or
/// fewer as a vector of eight (see `transformTiles`), into the row's floats of the planes at
/// `destinationRow`.
@inline(__always)
func transformTileRow<Points: WinogradPoints>(_: Points.Type, _ rowBase: UnsafeRawPointer, tileColumns: Int, phaseWidth: Int,
                                              rows: UnsafeMutableRawPointer, into destinationRow: UnsafeMutableRawPointer,
                                              planeStride: Int) {
    var column = 0
    while column < tileColumns {
        if tileColumns - column > 8 {
            Points.transformGroup(SIMD16<Float>.self, rowBase + 4 * column, phaseWidth: phaseWidth, rows: rows,
                                  into: destinationRow + 4 * column, planeStride: planeStride)
            column += 16
        } else {
            Points.transformGroup(SIMD8<Float>.self, rowBase + 4 * column, phaseWidth: phaseWidth, rows: rows,
                                  into: destinationRow + 4 * column, planeStride: planeStride)
            column += 8
        }
    }
}

/// F(4×4, 3×3)'s six points.
enum SixPoints: WinogradPoints {
    /// `V = Bᵀ d B` for one vector of neighbouring tiles of a tile row (`V.scalarCount` of them), from
    /// the phases of its six input rows at `phases` (`4 · phaseWidth` floats a row) into the 36 planes
    /// at `destination`, `planeStride` floats apart. d B goes through `rows`: 36 vectors are more than
    /// the registers hold, and each is read back whole from where it was stored, so its loads are
    /// forwarded from the stores.
    @inline(__always)
    static func transformGroup<V: TileVector>(_: V.Type, _ phases: UnsafeRawPointer, phaseWidth: Int, rows: UnsafeMutableRawPointer,
                                              into destination: UnsafeMutableRawPointer, planeStride: Int) {
        let size = MemoryLayout<V>.size
        for i in 0..<6 {
            let row = phases + 4 &* (4 &* i &* phaseWidth)
            @inline(__always) func d(_ phase: Int, _ offset: Int) -> V {
                row.loadUnaligned(fromByteOffset: 4 &* (phase &* phaseWidth &+ offset), as: V.self)
            }
            store(inputTransform((d(0, 0), d(1, 0), d(2, 0), d(3, 0), d(0, 1), d(1, 1))), at: rows + 6 &* size &* i, stride: size)
        }
        // Column b of Bᵀ (d B) is Bᵀ applied to column b of d B: ξ = 6a + b.
        let planeBytes = 4 &* planeStride, stride = 6 &* planeBytes
        for b in 0..<6 {
            @inline(__always) func dB(_ i: Int) -> V { rows.load(fromByteOffset: size &* (6 &* i &+ b), as: V.self) }
            store(inputTransform((dB(0), dB(1), dB(2), dB(3), dB(4), dB(5))), at: destination + b &* planeBytes, stride: stride)
        }
    }

    @inline(__always)
    static func outputColumns(_ source: UnsafePointer<Float>, planeStride: Int) -> (Four, Four, Four, Four) {
        // Row i of M times A, for the six rows; then Aᵀ down each of the four columns.
        @inline(__always) func rowTimesA(_ i: Int) -> Four {
            @inline(__always) func m(_ j: Int) -> SIMD8<Float> {
                UnsafeRawPointer(source + (6 * i + j) * planeStride).loadUnaligned(as: SIMD8<Float>.self)
            }
            return outputTransform((m(0), m(1), m(2), m(3), m(4), m(5)))
        }
        let (r0, r1, r2, r3, r4, r5) = (rowTimesA(0), rowTimesA(1), rowTimesA(2), rowTimesA(3), rowTimesA(4), rowTimesA(5))
        return (outputTransform((r0.0, r1.0, r2.0, r3.0, r4.0, r5.0)), outputTransform((r0.1, r1.1, r2.1, r3.1, r4.1, r5.1)),
                outputTransform((r0.2, r1.2, r2.2, r3.2, r4.2, r5.2)), outputTransform((r0.3, r1.3, r2.3, r3.3, r4.3, r5.3)))
    }
}

/// `Bᵀ d` for six values `d` (a column of a tile, or a row times B).
@inline(__always)
private func inputTransform<V: TileVector>(_ d: (V, V, V, V, V, V)) -> (V, V, V, V, V, V) {
    @inline(__always) func c(_ value: Float) -> V { V(repeating: value) }
    @inline(__always) func multiplyAdd(_ a: V, _ b: V, _ c: V) -> V { V.multiplyAdd(a, b, c) }
    // Rows 0 and 5 are the same weights, (1, −3/2, −2, 3/2, 1), on d0…d4 and d1…d5.
    @inline(__always) func outer(_ a: V, _ b: V, _ e: V, _ f: V, _ h: V) -> V {
        multiplyAdd(c(1.5), f - b, multiplyAdd(c(-2), e, a + h))
    }
    let t1 = multiplyAdd(c(2.5), d.3, multiplyAdd(c(0.5), d.2, d.4 - d.1))
    let t2 = multiplyAdd(c(-2.5), d.2, multiplyAdd(c(0.5), d.3, d.4 + d.1))
    let t3 = multiplyAdd(c(2), d.3 - d.1, d.4 - d.2)
    let t4 = multiplyAdd(c(0.5), d.1 - d.3, d.4 - d.2)
    return (outer(d.0, d.1, d.2, d.3, d.4), t1, t2, t3, t4, outer(d.1, d.2, d.3, d.4, d.5))
}

/// `Aᵀ m` for six values `m`: four. (Every weight is a power of two, so only the sums round.)
@inline(__always)
private func outputTransform(_ m: Six) -> Four {
    let sum12 = m.1 + m.2, difference12 = m.1 - m.2
    return (m.0 + sum12 + m.3 + m.4,
            difference12 + 0.5 * m.3 - 2 * m.4,
            sum12 + 0.25 * m.3 + 4 * m.4,
            difference12 + 0.125 * m.3 - 8 * m.4 + m.5)
}

/// The columns of one input row by phase: `phases[q · phaseWidth + m] = row[4m + q − 1]` (the
/// padded row's column 4m + q), for the row's `width` columns; the other entries are left alone.
///
/// Sixteen columns at a time, from column 0: input column x is padded column x + 1, so of the
/// columns x … x + 15, those k, k + 4, k + 8 and k + 12 after x go to phase (x + 1 + k) mod 4, four
/// neighbours from index (x + 1 + k) / 4, whatever x is. The last sixteen end at the row's end,
/// overlapping the ones before (writing the same values again) rather than leaving up to
/// eighteen columns, the three at the start included, to be copied one by one: that loop had a
/// fifth of the split's samples.
@inline(__always)
func splitIntoPhases(_ row: UnsafePointer<Float>, width: Int, into phases: UnsafeMutablePointer<Float>, phaseWidth: Int) {
    guard width >= 16 else {
        // Input column x is padded column x + 1: phase (x + 1) mod 4, index (x + 1) / 4.
        for x in 0..<width { phases[((x &+ 1) & 3) &* phaseWidth &+ ((x &+ 1) >> 2)] = row[x] }
        return
    }
    let raw = UnsafeMutableRawPointer(phases)
    @inline(__always) func split(_ x: Int) {
        let block = UnsafeRawPointer(row + x).loadUnaligned(as: SIMD16<Float>.self)
        let (evens, odds) = (block.evenHalf, block.oddHalf)
        @inline(__always) func store(_ k: Int, _ columns: SIMD4<Float>) {
            let padded = x &+ 1 &+ k
            raw.storeBytes(of: columns, toByteOffset: 4 &* ((padded & 3) &* phaseWidth &+ (padded >> 2)), as: SIMD4<Float>.self)
        }
        store(0, evens.evenHalf)
        store(1, odds.evenHalf)
        store(2, evens.oddHalf)
        store(3, odds.oddHalf)
    }
    var x = 0
    while x &+ 16 < width {
        split(x)
        x &+= 16
    }
    split(width &- 16)
}

/// The first `count` (< 32) floats at `source`, copied to `destination` in pieces of 16, 8, 4, 2
/// and 1 floats: no float past them is written (the floats after a group's last valid column
/// belong to the next row, plane or thread). Cheaper than `memcpy` for these short copies, which
/// are every group's at narrow widths.
@inline(__always)
private func copyPrefix(_ count: Int, from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer) {
    var offset = 0
    @inline(__always) func copy<Piece>(_: Piece.Type, if bit: Int) {
        guard count & bit != 0 else { return }
        destination.storeBytes(of: source.load(fromByteOffset: offset, as: Piece.self), toByteOffset: offset, as: Piece.self)
        offset += 4 * bit
    }
    copy(SIMD16<Float>.self, if: 16)
    copy(SIMD8<Float>.self, if: 8)
    copy(SIMD4<Float>.self, if: 4)
    copy(SIMD2<Float>.self, if: 2)
    copy(Float.self, if: 1)
}

/// Floats `4k…4k + 15` of the interleaved columns `(c0[0], c1[0], c2[0], c3[0], c0[1], …, c3[7])`,
/// from `p = (c0, c1)` and `q = (c2, c3)`.
@inline(__always)
private func interleaved(_ p: SIMD16<Float>, _ q: SIMD16<Float>, from k: Int) -> SIMD16<Float> {
    SIMD16(p[k], p[k + 8], q[k], q[k + 8], p[k + 1], p[k + 9], q[k + 1], q[k + 9],
           p[k + 2], p[k + 10], q[k + 2], q[k + 10], p[k + 3], p[k + 11], q[k + 3], q[k + 11])
}

/// The kernel set's `multiplyAdd`, under a name that `TileVector.multiplyAdd` does not shadow.
@inline(__always)
private func laneMultiplyAdd(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>) -> SIMD8<Float> { multiplyAdd(a, b, c) }

@inline(__always)
private func laneMultiplyAdd(_ a: SIMD16<Float>, _ b: SIMD16<Float>, _ c: SIMD16<Float>) -> SIMD16<Float> { multiplyAdd(a, b, c) }
