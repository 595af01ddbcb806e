import FoundationEssentials
import Glibc

/// How many threads the kernels use. The kernels split their work themselves (convolutions by
/// blocks of output positions or tiles, direct loops by channel, attention by head). Set it once,
/// before inference starts (`swift-yolo bench --threads`); the default is every core the process may
/// use (`AvailableCores`).
package enum ComputeThreads {
    private static let pool = WorkerPool(threads: AvailableCores.count)

    package static var count: Int { pool.threads }

    /// The most threads a pass may be given (the command line refuses more): far past any core count
    /// this engine is for, and far short of what would exhaust the process's threads or memory.
    package static let maximum = 1024

    /// Uses `count` threads (clamped to 1…`maximum`) from now on, or as many of them as the system
    /// lets the pool start (`WorkerPool.setThreads`); returns the count in use and, where it is
    /// fewer, the system's reason.
    @discardableResult
    package static func set(_ count: Int) -> WorkerPool.Grant {
        pool.setThreads(min(max(1, count), maximum))
    }

    /// Whether this thread is running a chunk of a `parallelFor` (where another one runs serially).
    package static var isInsideParallelFor: Bool { WorkerPool.isInsideJob }

    /// Runs `body(i)` for `i` in `0..<iterations`, cut into contiguous chunks (an iteration each where
    /// there are few, else `WorkerPool.chunksPerThread` per thread): each thread runs its own share
    /// of them in order, the calling thread the first, then takes over others' unclaimed ones (so
    /// that iterations numbered along a feature map's positions stay with the same thread from one
    /// call to the next). `body` must only write what iteration `i` owns. Inside another
    /// `parallelFor` it runs serially.
    package static func parallelFor(_ iterations: Int, _ body: (Int) -> Void) {
        pool.run(iterations, body)
    }
}
