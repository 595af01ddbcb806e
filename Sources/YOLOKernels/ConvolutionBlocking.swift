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

    /// Whether the 1×1 path copies each block's rows before its GEMM: planes a multiple of 4 KiB long
    /// put every row of B in the same sets of the L1 cache, and the copy's rows are not.
    package static func copiesPointwiseBlocks(planeSize: Int, panelShares panels: Int) -> Bool {
        planeSize % 1024 == 0 && panels > 1
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
        if let winograd {
            floats = winograd.scratchFloats(height: height, width: width, threads: threads, running: running, lanes: lanes)
        } else if let phaseSplit {
            floats = phaseSplit.scratchFloats(height: height, width: width, threads: threads, running: running, lanes: lanes)
        } else if g.isDepthwise {
            floats = 0
        } else {
            let planeSize = g.outputSize(height) * g.outputSize(width)
            let blockSize = blockSize(depth: g.filterSize, planeSize: planeSize, lanes: lanes)
            let tasks = GEMMTasks(blocks: (planeSize + blockSize - 1) / blockSize, panels: packedFilters[0].panels, threads: threads)
            let perTask: Int
            if g.kernelSize == 1 && g.stride == 1 && g.padding == 0 && g.groups == 1 {
                let panelsPerTask = (packedFilters[0].panels + tasks.panelShares - 1) / tasks.panelShares
                perTask = Self.copiesPointwiseBlocks(planeSize: planeSize, panelShares: panelsPerTask)
                    ? g.filterSize * Self.pointwiseCopyStride(blockSize) : 0
            } else {
                perTask = g.inputChannels * g.kernelSize * g.kernelSize * blockSize  // the block's im2col columns
            }
            floats = min(running, tasks.count) * perTask
        }
        return floats * MemoryLayout<Float>.stride
    }
}

extension WinogradConvolution {
    /// The blocks of tile rows for an input of `height × width`, block `b` the rows from
    /// `tileRows · b / blocks` up to the next block's: about 256 tiles a block, and a multiple of the
    /// threads where there are the rows, so that each thread gets as many rows (seven blocks of six
    /// rows and one of four, as before at 160 × 160, kept one of two threads waiting for a fifth of
    /// the layer).
    package static func blockCount(height: Int, width: Int, threads: Int) -> Int {
        let tileRows = (height + 3) / 4, tileColumns = (width + 3) / 4
        let preferredRows = max(1, 256 / tileColumns)
        let blocks = (tileRows + preferredRows - 1) / preferredRows
        return min(tileRows, (blocks + threads - 1) / threads * threads)
    }

    /// Each block's `V_ξ` (`C_in × tiles`) and `M_ξ` (`C_out × tiles` in whole vectors), 36 of each with
    /// a cache line after each, and its input rows split into four column phases, times the blocks
    /// that run at once.
    func scratchFloats(height: Int, width: Int, threads: Int, running: Int, lanes: Int) -> Int {
        let tileRows = (height + 3) / 4, tileColumns = (width + 3) / 4
        let blocks = Self.blockCount(height: height, width: width, threads: threads)
        let rowsPerBlock = (tileRows + blocks - 1) / blocks
        let tiles = rowsPerBlock * tileColumns
        let productColumns = (tiles + lanes - 1) / lanes * lanes
        let split = (4 * rowsPerBlock + 2) * 4 * (tileColumns + 1 + 16)
        let perBlock = 36 * (inputChannels * tiles + 16) + 36 * (outputChannels * productColumns + 16) + 8 + split
        return min(running, blocks) * perBlock
    }
}

extension PhaseSplitConvolution {
    /// The blocks of output rows for an input of `height × width` with vectors of `lanes`: the phase
    /// planes' width, whether output rows of whole vectors are multiplied row by row, and the
    /// blocks. Blocks' four phases take about 192 KiB, but at least 512 columns (the GEMM wastes part
    /// of a vector tile at the end of every block); their number a multiple of the threads, the rows
    /// spread evenly over them (each block splits its own input into phases, so whole blocks per
    /// thread beat sharing each block's panels). Rows of whole vectors have their phase rows padded
    /// to whole cache lines (16 floats), so that the six taps with no column offset read each row of
    /// B from one line, where most reads would straddle two.
    package func blocking(height: Int, width: Int, threads: Int, lanes: Int) -> (phaseWidth: Int, wholeRows: Bool, blocks: Int) {
        let outputHeight = (height + 1) / 2, outputWidth = (width + 1) / 2
        let wholeRows = outputWidth % lanes == 0 && outputWidth >= 4 * lanes
        let phaseWidth = wholeRows ? (outputWidth + 16) / 16 * 16 : outputWidth + 1
        let bytesPerRow = 4 * inputChannels * phaseWidth * MemoryLayout<Float>.stride
        let preferredRows = max(1, (192 << 10) / bytesPerRow, (512 + phaseWidth - 1) / phaseWidth)
        let blocks = min(outputHeight, ((outputHeight + preferredRows - 1) / preferredRows + threads - 1) / threads * threads)
        return (phaseWidth, wholeRows, blocks)
    }

    /// Each block's four phases (and, for rows not of whole vectors, its products), times the blocks
    /// that run at once.
    func scratchFloats(height: Int, width: Int, threads: Int, running: Int, lanes: Int) -> Int {
        let outputHeight = (height + 1) / 2
        let (phaseWidth, wholeRows, blocks) = blocking(height: height, width: width, threads: threads, lanes: lanes)
        let tasks = GEMMTasks(blocks: blocks, panels: filters.panels, threads: threads)
        let rows = (outputHeight + blocks - 1) / blocks
        let phases = 4 * inputChannels * (rows + 1) * phaseWidth + lanes
        let products = wholeRows ? 0 : outputChannels * ((rows * phaseWidth + lanes - 1) / lanes * lanes)
        return min(running, tasks.count) * (phases + products)
    }
}
