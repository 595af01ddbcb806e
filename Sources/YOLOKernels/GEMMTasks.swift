/// How a convolution's GEMM work — `blocks` blocks of positions (or output rows) times the filter's
/// row panels — is cut into tasks for `ComputeThreads.parallelFor`, so that every thread gets the
/// same share.
///
/// The threads claim the tasks as they come free: one at a time where there are few, in contiguous
/// chunks of several where there are many (`WorkerPool.chunkCount`). When the blocks are all the
/// same size and divide evenly among the threads, or there are enough of them that the odd one out
/// matters little (at least four per thread), a task is a block with all the panels. Otherwise (two
/// threads and three blocks, say, or one block, or two blocks of 224 and 176 positions at 20 × 20)
/// each block is also cut into one share of the panels per thread, and the tasks are numbered
/// share-major: the work is then even along the task indices whatever the blocks' sizes, and so
/// are the chunks. (Sharing costs something: every share reads the block's input again. At 25
/// blocks on two threads it was slower than the 13 : 12 split.)
package struct GEMMTasks {
    package let blocks: Int
    package let panels: Int
    /// Shares of the panels per block: 1, or the thread count.
    package let panelShares: Int

    /// `blocksAreEqual`: whether every block holds as many positions (a shorter last block leaves
    /// the thread that draws it waiting for the others).
    package init(blocks: Int, panels: Int, threads: Int = ComputeThreads.count, blocksAreEqual: Bool = true) {
        self.blocks = blocks
        self.panels = panels
        // A share needs a panel at least; with fewer panels than threads the blocks stay whole.
        let balanced = (blocks % threads == 0 && blocksAreEqual) || blocks >= 4 * threads
        panelShares = balanced || panels < threads ? 1 : threads
    }

    /// The tasks of blocks of `blockSize` positions over `planeSize` ones, the last block shorter
    /// where they do not divide it.
    package init(planeSize: Int, blockSize: Int, panels: Int, threads: Int) {
        self.init(blocks: (planeSize + blockSize - 1) / blockSize, panels: panels, threads: threads,
                  blocksAreEqual: planeSize % blockSize == 0)
    }

    package var count: Int { blocks * panelShares }

    /// Task `index`: which block, and which of its panels.
    package func callAsFunction(_ index: Int) -> (block: Int, panels: Range<Int>) {
        let (share, block) = index.quotientAndRemainder(dividingBy: blocks)
        return (block, evenShare(share, of: panelShares, count: panels))
    }
}
