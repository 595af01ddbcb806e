/// How each convolution path cuts its work into blocks, and the scratch buffers the blocks hold:
/// one decision, read by the kernel sets when they run (`lanes`: their vector width) and by the
/// memory plan (`Convolution.scratchBytes`), so that the plan counts what the kernels take.

extension Convolution {
    /// Positions per block on the GEMM paths: `positionsPerBlock`, or about as many as keep `depth`
    /// rows of a block near 256 KiB — evened out over the blocks that makes, a whole number of the
    /// GEMM's column tiles (two vectors of `lanes`) each.
    package func blockSize(depth: Int, planeSize: Int, lanes: Int) -> Int {
        if let positionsPerBlock { return max(1, min(planeSize, positionsPerBlock)) }
        let tile = 2 * lanes
        let preferred = max(256, (64 << 10) / max(depth, 1) / tile * tile)
        let blocks = (planeSize + preferred - 1) / preferred
        return max(1, min(planeSize, ((planeSize + blocks - 1) / blocks + tile - 1) / tile * tile))
    }

    /// Whether the 1×1 path copies each block's rows before its GEMM, for a task of `panels` panels:
    /// planes a multiple of 4 KiB long put every row of B in the same sets of the L1 cache, and the
    /// copy's rows are not.
    package static func copiesPointwiseBlocks(planeSize: Int, panels: Int) -> Bool {
        planeSize % 1024 == 0 && panels > 1
    }

    /// The floats of the im2col columns of a block of `positions` output positions: `C_in · k · k` rows.
    package func im2colFloats(positions: Int) -> Int {
        geometry.inputChannels * geometry.kernelSize * geometry.kernelSize * positions
    }

    /// The row stride of that copy for a block of `count` positions: whole cache lines, not a multiple of 4 KiB.
    package static func pointwiseCopyStride(_ count: Int) -> Int {
        let stride = (count + 15) / 16 * 16
        return stride % 1024 == 0 ? stride + 16 : stride
    }

    /// The most bytes of buffers (`Tensor`s from the pool) that the convolution of a `C_in × height ×
    /// width` input holds at once beside its input and output, with its work cut into blocks for
    /// `threads` threads and vectors of `lanes`, and `running` threads at work on it (`threads`, or 1
    /// inside another `parallelFor`): each block's own buffers, times the blocks that run at once.
    package func scratchBytes(height: Int, width: Int, threads: Int = ComputeThreads.count, running: Int,
                              lanes: Int = KernelSet.active.vectorLanes) -> Int {
        let g = geometry
        let floats: Int
        if let winograd, let phaseSplit {
            // One after the other.
            floats = max(winograd.scratchFloats(height: height, width: width, threads: threads, running: running, lanes: lanes),
                         phaseSplit.scratchFloats(height: height, width: width, threads: threads, running: running, lanes: lanes))
        } else if let winograd {
            floats = winograd.scratchFloats(height: height, width: width, threads: threads, running: running, lanes: lanes)
        } else if let phaseSplit {
            floats = phaseSplit.scratchFloats(height: height, width: width, threads: threads, running: running, lanes: lanes)
        } else if g.isDepthwise {
            floats = 0
        } else {
            let planeSize = g.outputSize(height) * g.outputSize(width)
            let blockSize = blockSize(depth: g.filterSize, planeSize: planeSize, lanes: lanes)
            let tasks = GEMMTasks(planeSize: planeSize, blockSize: blockSize, panels: packedFilters[0].panels, threads: threads)
            let perTask: Int
            if g.kernelSize == 1 && g.stride == 1 && g.padding == 0 && g.groups == 1 {
                let panelsPerTask = (packedFilters[0].panels + tasks.panelShares - 1) / tasks.panelShares
                perTask = Self.copiesPointwiseBlocks(planeSize: planeSize, panels: panelsPerTask)
                    ? g.filterSize * Self.pointwiseCopyStride(blockSize) : 0
            } else {
                perTask = im2colFloats(positions: blockSize)
            }
            floats = min(running, tasks.count) * perTask
        }
        return floats * MemoryLayout<Float>.stride
    }
}

extension WinogradConvolution {
    /// How the work of an input of `height × width` is cut.
    package enum Blocking: Equatable {
        /// Blocks of whole tile rows, block `b` the rows from `tileRows · b / blocks` up to the next
        /// block's: each block's input transform, GEMMs and output transform are one task.
        case tileRows(blocks: Int)
        /// One block of every tile, in `shares` shares, one per thread: each share transforms its share
        /// of the input channels (`evenShare`) into `V` buffers of its own, the GEMMs' `B`
        /// in as many pieces; then, once every share has, it multiplies its share of the filters'
        /// panels and transforms their output channels back. For a layer of one block whose tile
        /// rows do not divide evenly among the threads: at 20 × 20, split into tile rows, one thread
        /// got two rows and the other three, and each block's GEMMs ran on one vector of columns.
        /// (Where the rows divide evenly, as at 40 × 40, shares were slower with 64 input channels:
        /// each thread reads all of `V`, half of it from the other core.)
        case channelShares(Int)
    }

    /// For an input of `height × width`, `threads` threads, `running` of them at work on this layer
    /// (`threads`, or 1 inside another `parallelFor`): about 256 tiles a block; one block in shares where that is all the
    /// layer has and its tile rows do not divide evenly among the running threads (and there is a
    /// panel and an input channel for every share); else blocks a multiple of the threads where
    /// there are the rows, so that each thread gets as many rows (seven blocks of six rows and one
    /// of four, as before at 160 × 160, kept one of two threads waiting for a fifth of the layer).
    package func blocking(height: Int, width: Int, threads: Int, running: Int) -> Blocking {
        let tileRows = (outputSize(height) + 3) / 4, tileColumns = (outputSize(width) + 3) / 4
        let preferredRows = max(1, 256 / tileColumns)
        let blocks = (tileRows + preferredRows - 1) / preferredRows
        if blocks == 1 && running > 1 && tileRows % running != 0
            && transformedWeights[0].panels >= running && inputChannels >= running {
            return .channelShares(running)
        }
        return .tileRows(blocks: min(tileRows, (blocks + threads - 1) / threads * threads))
    }

    /// The buffers of a block of `tileRows` rows of `tileColumns` tiles, with vectors of `lanes`.
    package struct BlockBuffers {
        /// `V_ξ`, `depth × tiles` (`depth` the input channels of one share), and `M_ξ`, `C_out` rows of
        /// `productColumns` (the tiles in whole vectors), `planes` of each, a cache line after each and
        /// eight floats more after the last `M_ξ`. The rows of `M_ξ` lie `productRowStride` apart,
        /// seven floats past the last tile at least: the output transform loads eight tiles at a time,
        /// up to seven past a row's last, and reads no other channel's row (another share's, being written).
        package let productColumns: Int, productRowStride: Int, transformedStride: Int, productsStride: Int
        /// The block's padded input rows (at stride 2, the even ones' even columns) split into four
        /// column phases: `splitRows × 4 × splitWidth`; at stride 2, then a row of the input's odd
        /// columns, `oddRowFloats`.
        package let splitRows: Int, splitWidth: Int, oddRowFloats: Int
        /// The transformed planes, `points²`.
        package let planes: Int

        /// - Parameter depth: the rows of `V_ξ`, input channels.
        package init(depth: Int, outputChannels: Int, stride: Int = 1, tileRows: Int, tileColumns: Int, lanes: Int) {
            let tiles = tileRows * tileColumns
            productColumns = (tiles + lanes - 1) / lanes * lanes
            productRowStride = max(productColumns, (tiles + 7 + lanes - 1) / lanes * lanes)
            transformedStride = depth * tiles + 16
            productsStride = outputChannels * productRowStride + 16
            // Padded row p[k] = input[k − 1]; phase q holds p[4m + q] at m (at stride 2, p[2i][8m + 2q]
            // of even row 2i); spare lanes for the loads at m + 1. A tile row reads 6 padded rows (5
            // even ones at stride 2), the last two (one) the next one's first.
            splitRows = stride == 1 ? 4 * tileRows + 2 : 4 * tileRows + 1
            splitWidth = tileColumns + 1 + 16
            // An input row of at most 8 · tileColumns columns (2 · 4 · tileColumns outputs), half of
            // them odd, and a vector's spare.
            oddRowFloats = stride == 1 ? 0 : 4 * tileColumns + 16
            planes = stride == 1 ? 36 : 25
        }

        package var transformedFloats: Int { planes * transformedStride }
        package var productsFloats: Int { planes * productsStride + 8 }
        package var splitFloats: Int { splitRows * 4 * splitWidth + oddRowFloats }
    }

    /// The buffers of a share of `shares` (or a block, `shares` 1): its input channels the largest
    /// share's.
    package func buffers(tileRows: Int, tileColumns: Int, shares: Int, lanes: Int) -> BlockBuffers {
        BlockBuffers(depth: (inputChannels + shares - 1) / shares, outputChannels: outputChannels, stride: stride,
                     tileRows: tileRows, tileColumns: tileColumns, lanes: lanes)
    }

    /// The largest block's buffers, times the blocks that run at once; or every share's `V`, the one
    /// `M`, and the input transforms' buffers that run at once.
    func scratchFloats(height: Int, width: Int, threads: Int, running: Int, lanes: Int) -> Int {
        let tileRows = (outputSize(height) + 3) / 4, tileColumns = (outputSize(width) + 3) / 4
        switch blocking(height: height, width: width, threads: threads, running: running) {
        case let .tileRows(blocks):
            let buffers = buffers(tileRows: (tileRows + blocks - 1) / blocks, tileColumns: tileColumns, shares: 1, lanes: lanes)
            return min(running, blocks) * (buffers.transformedFloats + buffers.productsFloats + buffers.splitFloats)
        case let .channelShares(shares):
            let buffers = buffers(tileRows: tileRows, tileColumns: tileColumns, shares: shares, lanes: lanes)
            return shares * buffers.transformedFloats + buffers.productsFloats + min(running, shares) * buffers.splitFloats
        }
    }
}

extension PhaseSplitConvolution {
    /// How the work of an input of `height × width` is cut, with vectors of `lanes`.
    package enum Blocking {
        /// Output rows of whole vectors (at least four): `blocks` blocks of output rows, the rows
        /// spread evenly over them, each row one GEMM straight into the output; the four phases'
        /// rows `phaseWidth` floats apart, padded to whole cache lines (16 floats), so that the six
        /// taps with no column offset read each row of B from one line, where most reads would
        /// straddle two.
        case rows(blocks: Int, phaseWidth: Int)
        /// Narrower or ragged rows: `blocks` runs of output positions (row-major, each starting at
        /// a whole vector), each one GEMM straight into the output, over six planes of `OW`-wide
        /// rows (`positionPlaneFloats`).
        case positions(blocks: Int)

        package var blocks: Int {
            switch self {
            case let .rows(blocks, _), let .positions(blocks): blocks
            }
        }
    }

    /// The blocking for an input of `height × width` on `threads` threads with vectors of `lanes`.
    /// A block's planes take about 192 KiB, but a block of rows has at least 512 positions and a
    /// run of positions at least 256 (the GEMM wastes part of a vector tile at the end of every
    /// block; runs of 512 at 40 × 40 with 128 channels, 1.3 MiB of planes, were slower at two
    /// threads); the blocks a multiple of the threads (each block splits its own input into phases,
    /// so whole blocks per thread beat sharing each block's panels).
    package func blocking(height: Int, width: Int, threads: Int, lanes: Int) -> Blocking {
        let outputHeight = (height + 1) / 2, outputWidth = (width + 1) / 2
        func multipleOfThreads(_ blocks: Int, atMost limit: Int) -> Int {
            min(limit, (blocks + threads - 1) / threads * threads)
        }
        if outputWidth % lanes == 0 && outputWidth >= 4 * lanes {
            let phaseWidth = (outputWidth + 16) / 16 * 16
            let bytesPerRow = 4 * inputChannels * phaseWidth * MemoryLayout<Float>.stride
            let preferredRows = max(1, (192 << 10) / bytesPerRow, (512 + phaseWidth - 1) / phaseWidth)
            return .rows(blocks: multipleOfThreads((outputHeight + preferredRows - 1) / preferredRows, atMost: outputHeight),
                         phaseWidth: phaseWidth)
        }
        let positions = outputHeight * outputWidth
        let preferred = max(256, (192 << 10) / (6 * inputChannels * MemoryLayout<Float>.stride))
        return .positions(blocks: multipleOfThreads((positions + preferred - 1) / preferred, atMost: max(1, positions / lanes)))
    }

    /// Block `block` of `blocks` runs of positions over `positions`: from a whole vector (of `lanes`)
    /// on, up to the next block's start.
    package static func positionBlock(_ block: Int, of blocks: Int, positions: Int, lanes: Int) -> Range<Int> {
        func start(_ b: Int) -> Int { b == blocks ? positions : (positions * b / blocks + lanes / 2) / lanes * lanes }
        return start(block)..<start(block + 1)
    }

    /// The floats of the six planes of a run of positions on `rows` output rows, `OW` wide, from row
    /// `y₀`: for each input row parity `a` and column tap `kx`, `C_in` planes of `rows + 1` rows of `OW`
    /// floats, row `i` of plane `(a, kx)`, channel `c` holding the input's row `2(y₀ + i) + a − 1` at
    /// columns `2x + kx − 1` (zero outside the input), `(a · 3 + kx) · C_in + c` planes from the
    /// first. Tap `(ky, kx)` of output position `(y, x)` reads plane `(ky mod 2, kx)` at row
    /// `y − y₀ + ky / 2`, column `x`: for consecutive positions, consecutive floats, also across rows.
    package func positionPlaneFloats(rows: Int, outputWidth: Int) -> Int {
        6 * inputChannels * (rows + 1) * outputWidth
    }

    /// The output rows that positions `range` lie on, `outputWidth` to a row.
    package static func rows(of range: Range<Int>, outputWidth: Int) -> Range<Int> {
        (range.lowerBound / outputWidth)..<((range.upperBound - 1) / outputWidth + 1)
    }

    /// The floats of a block of `rows` rows' four phase planes, `rows + 1` phase rows of `phaseWidth`.
    package func phaseFloats(rows: Int, phaseWidth: Int) -> Int {
        4 * inputChannels * (rows + 1) * phaseWidth
    }

    /// The largest block's planes, times the blocks that run at once.
    func scratchFloats(height: Int, width: Int, threads: Int, running: Int, lanes: Int) -> Int {
        let outputHeight = (height + 1) / 2, outputWidth = (width + 1) / 2
        let blocking = blocking(height: height, width: width, threads: threads, lanes: lanes)
        let tasks = GEMMTasks(blocks: blocking.blocks, panels: filters.panels, threads: threads)
        let largest: Int
        switch blocking {
        case let .rows(blocks, phaseWidth):
            largest = phaseFloats(rows: (outputHeight + blocks - 1) / blocks, phaseWidth: phaseWidth)
        case let .positions(blocks):
            largest = (0..<blocks).map { block in
                let range = Self.positionBlock(block, of: blocks, positions: outputHeight * outputWidth, lanes: lanes)
                return positionPlaneFloats(rows: Self.rows(of: range, outputWidth: outputWidth).count, outputWidth: outputWidth)
            }.max() ?? 0
        }
        return min(running, tasks.count) * largest
    }
}
