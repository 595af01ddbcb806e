import YOLOKernels

/// How a loop of independent iterations runs: `run(count, body)` calls `body(i)` once for every
/// `i` in `0..<count`, possibly several at once, where each `i` writes only what it owns; `threads`
/// is how many run at once, which callers use to cut their work into that many parts. A detector
/// passes the kernels' thread pool; the default runs serially.
package struct ParallelLoop: Sendable {
    package let threads: Int
    package let run: @Sendable (_ count: Int, _ body: (Int) -> Void) -> Void

    package init(threads: Int, run: @escaping @Sendable (_ count: Int, _ body: (Int) -> Void) -> Void) {
        precondition(threads > 0, "a parallel loop needs at least one thread")
        self.threads = threads
        self.run = run
    }

    /// Cuts `0..<count` into one contiguous range per thread (fewer where `count` is smaller, none
    /// where it is 0) and calls `body` once for each range, possibly several at once.
    package func share(_ count: Int, _ body: (Range<Int>) -> Void) {
        let shares = min(threads, count)
        guard shares > 0 else { return }
        run(shares) { share in body(evenShare(share, of: shares, count: count)) }
    }

    /// One iteration after another on the calling thread.
    package static let serial = ParallelLoop(threads: 1) { count, body in
        for index in 0..<count { body(index) }
    }
}
