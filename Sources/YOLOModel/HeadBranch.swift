import YOLOKernels

/// One branch of a head: a module run on one of the head's input levels, and the widest map it
/// holds while it runs (channels at that level's size; 0 where the head counts its maps itself),
/// for the memory plan.
package struct HeadBranch: Sendable {
    package let module: any Module
    package let level: Int
    package let mapChannels: Int

    package init(module: any Module, level: Int, mapChannels: Int) {
        self.module = module
        self.level = level
        self.mapChannels = mapChannels
    }

    /// Each branch on its level. The branches are independent, so where the threads can share them
    /// out evenly (`runSideBySide`) they run side by side, each on one thread, the costliest first:
    /// their layers are small (YOLO11n's run on 80 × 80 maps at most), and split across the threads
    /// layer by layer they keep the threads waiting for each other. Otherwise one after the other,
    /// each layer on every thread. The results are the same either way.
    package static func run(_ branches: [HeadBranch], on levels: [Tensor]) -> [Tensor] {
        let costs = flops(branches, sizes: levels.map { ($0.chw.height, $0.chw.width) })
        guard runSideBySide(costs: costs, threads: ComputeThreads.count) else {
            return branches.map { $0.module(levels[$0.level]) }
        }
        let order = branches.indices.sorted { costs[$0] > costs[$1] }
        var outputs = [Tensor?](repeating: nil, count: branches.count)
        outputs.withUnsafeMutableBufferPointer { outputs in
            ComputeThreads.parallelFor(order.count) { k in
                let branch = branches[order[k]]
                outputs[order[k]] = branch.module(levels[branch.level])
            }
        }
        return outputs.map { $0! }
    }

    /// Each branch's FLOPs on its level, for levels of `sizes`.
    static func flops(_ branches: [HeadBranch], sizes: [(Int, Int)]) -> [Int] {
        branches.map { $0.module.flops(sizes[$0.level]) }
    }

    /// Whether branches of FLOPs `costs` run side by side on `threads` threads: when there are
    /// several threads and the costliest branch is at most `unevenShare` of an even share of their
    /// FLOPs (YOLO11n's Detect at 640 on two threads: the stride-8 box branch is 53% of the head,
    /// 1.07 of a half).
    package static func runSideBySide(costs: [Int], threads: Int) -> Bool {
        threads > 1 && Double(costs.max() ?? 0) <= unevenShare * Double(costs.reduce(0, +)) / Double(threads)
    }

    /// How far over an even share of the work the costliest branch may be for the branches to run side by side.
    static let unevenShare = 1.1

    /// For the memory plan: what the branches hold beyond one branch's maps at a time. One after
    /// the other, the scratch of the branch that holds most, each layer on every thread
    /// (`Module.scratchBytes`). Side by side, each thread's branch also holds two maps of its width at
    /// a time, beside the widest, and its own scratch on its one thread: the most there can be at
    /// once is the largest of each, `threads` of them.
    package static func scratchBytes(_ branches: [HeadBranch], sizes: [(Int, Int)], threads: Int) -> Int {
        guard runSideBySide(costs: flops(branches, sizes: sizes), threads: threads) else {
            return branches.map { $0.module.scratchBytes(sizes[$0.level], running: threads) }.max() ?? 0
        }
        let scratch = branches.map { $0.module.scratchBytes(sizes[$0.level], running: 1) }.sorted(by: >)
        let maps = branches.map { $0.mapChannels * sizes[$0.level].0 * sizes[$0.level].1 }.sorted(by: >)
        return maps.prefix(threads).dropFirst().reduce(0) { $0 + 2 * $1 } * MemoryLayout<Float>.stride
            + scratch.prefix(threads).reduce(0, +)
    }
}
