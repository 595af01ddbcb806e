import Dispatch
import Foundation

/// How many threads the kernels use. The kernels split their work themselves (convolutions by
/// blocks of output positions, direct loops by channel) and call OpenBLAS single-threaded from each
/// thread, so the two thread pools never compete. Set it once, before inference starts
/// (`swift-yolo bench --threads`); the default is every core.
public enum ComputeThreads {
    // Written once at start-up, read by every kernel afterwards.
    nonisolated(unsafe) private static var current: Int = {
        setBLASThreadCount(1)
        return ProcessInfo.processInfo.activeProcessorCount
    }()

    public static var count: Int { current }

    /// Uses `count` threads (at least one) from now on.
    public static func set(_ count: Int) {
        current = max(1, count)
        setBLASThreadCount(1)
    }

    /// Runs `body(i)` for `i` in `0..<iterations`, spread over the threads in contiguous chunks.
    /// `body` must only write what iteration `i` owns.
    public static func parallelFor(_ iterations: Int, _ body: (Int) -> Void) {
        let threads = min(current, iterations)
        guard threads > 1 else {
            for i in 0..<iterations { body(i) }
            return
        }
        withoutActuallyEscaping(body) { body in
            // Iterations touch disjoint data (the caller's contract), so sharing `body` is safe.
            nonisolated(unsafe) let body = body
            DispatchQueue.concurrentPerform(iterations: threads) { chunk in
                let start = iterations * chunk / threads, end = iterations * (chunk + 1) / threads
                for i in start..<end { body(i) }
            }
        }
    }
}
