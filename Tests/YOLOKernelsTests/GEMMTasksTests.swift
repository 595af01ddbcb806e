import Testing
import YOLOKernels

/// The cut of a convolution's GEMM work into tasks: every panel of every block exactly once, and
/// shares of the panels only where whole blocks would leave the threads unevenly loaded.
@Suite struct GEMMTasksTests {
    @Test func everyPanelOfEveryBlockOnce() {
        for threads in 1...3 {
            for blocks in 1...13 {
                for panels in 1...5 {
                    let tasks = GEMMTasks(blocks: blocks, panels: panels, threads: threads)
                    var seen = [Int](repeating: 0, count: blocks * panels)
                    for task in 0..<tasks.count {
                        let (block, share) = tasks(task)
                        for panel in share { seen[block * panels + panel] += 1 }
                    }
                    #expect(seen.allSatisfy { $0 == 1 }, "\(blocks) blocks, \(panels) panels, \(threads) threads: \(seen)")
                    let shared = blocks % threads != 0 && blocks < 4 * threads && panels >= threads
                    #expect(tasks.panelShares == (shared ? threads : 1), "\(blocks) blocks, \(panels) panels, \(threads) threads")
                }
            }
        }
    }

    /// Blocks of one size over the plane stay whole where they divide among the threads; a shorter
    /// last block (400 positions in blocks of 224 on two threads) has its panels shared.
    @Test func aShorterLastBlockSharesThePanels() {
        #expect(GEMMTasks(planeSize: 448, blockSize: 224, panels: 32, threads: 2).panelShares == 1)
        let uneven = GEMMTasks(planeSize: 400, blockSize: 224, panels: 32, threads: 2)
        #expect(uneven.blocks == 2 && uneven.panelShares == 2 && uneven.count == 4)
        // Enough blocks that the short one matters little: whole blocks.
        #expect(GEMMTasks(planeSize: 8 * 224 + 100, blockSize: 224, panels: 32, threads: 2).panelShares == 1)
        // Fewer panels than threads: whole blocks.
        #expect(GEMMTasks(planeSize: 400, blockSize: 224, panels: 1, threads: 2).panelShares == 1)
    }

    /// Share-major numbering: `parallelFor`'s contiguous chunks give each thread one share of every block.
    @Test func eachThreadGetsOneShareOfEveryBlock() {
        let tasks = GEMMTasks(blocks: 3, panels: 4, threads: 2)
        #expect(tasks.count == 6)
        #expect((0..<3).map { tasks($0).panels } == [0..<2, 0..<2, 0..<2])
        #expect((3..<6).map { tasks($0).panels } == [2..<4, 2..<4, 2..<4])
        #expect((0..<6).map { tasks($0).block } == [0, 1, 2, 0, 1, 2])
    }
}
