import Testing
import YOLOKernels
import YOLOModel

/// `HeadBranch`: when a head's branches run side by side, what the memory plan counts for them, and that
/// the outputs come back in the branches' order on either path.
@Suite struct HeadBranchTests {
    /// A branch of a given cost and scratch whose output is one value: its tag plus its input's first value.
    struct TaggedBranch: Module {
        let cost: Int
        let scratch: Int
        let tag: Float
        func callAsFunction(_ x: Tensor) -> Tensor { Tensor(shape: [1, 1, 1, 1], values: [tag + x.data[0]]) }
        var parameterCount: Int { 0 }
        func flops(_ size: (Int, Int)) -> Int { cost }
        func scratchBytes(_ size: (Int, Int), running: Int) -> Int { scratch }
    }

    static func branch(cost: Int, level: Int, mapChannels: Int = 1, scratch: Int = 0, tag: Float = 0) -> HeadBranch {
        HeadBranch(module: TaggedBranch(cost: cost, scratch: scratch, tag: tag), level: level, mapChannels: mapChannels)
    }

    @Test("side by side only on several threads, with the costliest branch at most 1.1 × an even share",
          arguments: [
              ([53, 47], 1, false),
              ([53, 47], 2, true),       // 53 ≤ 1.1 × 50
              ([55, 45], 2, true),       // exactly 1.1 × 50
              ([56, 44], 2, false),
              ([40, 30, 30], 3, false),  // 40 > 1.1 × 33.3
              ([35, 33, 32], 3, true),
              ([52, 28, 20], 2, true),   // the second thread takes the two small ones
          ])
    func rule(costs: [Int], threads: Int, sideBySide: Bool) {
        #expect(HeadBranch.runSideBySide(costs: costs, threads: threads) == sideBySide)
    }

    /// Maps of 16 × 64, 8 × 64 and 32 × 16 floats (levels 8 × 8 and 4 × 4), scratch of 100, 300 and
    /// 200 bytes. One after the other, a branch at a time holds its scratch. Side by side, beside the
    /// widest map each further thread's branch holds two maps of its width, and each its scratch.
    @Test func scratch() {
        let sizes = [(8, 8), (4, 4)]
        let even = [Self.branch(cost: 10, level: 0, mapChannels: 16, scratch: 100),
                    Self.branch(cost: 10, level: 0, mapChannels: 8, scratch: 300),
                    Self.branch(cost: 10, level: 1, mapChannels: 32, scratch: 200)]
        #expect(HeadBranch.scratchBytes(even, sizes: sizes, threads: 1) == 300)
        #expect(HeadBranch.scratchBytes(even, sizes: sizes, threads: 2) == 2 * 512 * 4 + 300 + 200)
        #expect(HeadBranch.scratchBytes(even, sizes: sizes, threads: 3) == 2 * (512 + 512) * 4 + 300 + 200 + 100)
        // More threads than branches: each branch is over an even share, so each layer runs on every thread.
        #expect(HeadBranch.scratchBytes(even, sizes: sizes, threads: 8) == 300)
        // One branch far over an even share: one after the other.
        let uneven = [Self.branch(cost: 100, level: 0, mapChannels: 16, scratch: 100)] + even.dropFirst()
        #expect(HeadBranch.scratchBytes(uneven, sizes: sizes, threads: 2) == 300)
    }

    /// Even costs take the side-by-side path wherever `ComputeThreads.count` is above 1, uneven ones
    /// the sequential path: either way each branch reads its own level and its output is in its place.
    @Test(arguments: [[5, 4, 6, 5], [100, 1, 1, 1]])
    func outputsInBranchOrder(costs: [Int]) {
        let levels = [Tensor(shape: [1, 1, 1, 1], values: [100]), Tensor(shape: [1, 1, 1, 1], values: [200])]
        let branches = costs.enumerated().map { Self.branch(cost: $1, level: $0 % 2, tag: Float($0)) }
        let outputs = HeadBranch.run(branches, on: levels)
        #expect(outputs.map { $0.data[0] } == [100, 201, 102, 203])
    }
}
