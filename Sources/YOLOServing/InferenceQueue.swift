import Dispatch
import FoundationEssentials
import Glibc
import YOLOPlatform

/// Runs detections on threads of its own, `workers` at a time, so that forward passes never hold
/// the threads of Swift concurrency or of NIO's event loops (which go on accepting, parsing and
/// refusing requests meanwhile). At most `maxQueue` jobs wait; past that `submit` refuses at once
/// instead of buffering without bound.
package final class InferenceQueue: Sendable {
    /// The queue was full: the caller answers 503.
    package struct Full: Error {}

    /// A job runs its work and returns the hand-over of the result, which the worker calls once it
    /// counts itself free: a caller that has its result, and sends its next request at once, never
    /// finds the worker it just left still counted busy (a 503 at `maxQueue` 0).
    private typealias Job = @Sendable () -> @Sendable () -> Void

    private struct State {
        var jobs: [Job] = []
        var running = 0
    }

    package let workers: Int
    package let maxQueue: Int
    // A pthread mutex (`Lock`) rather than Synchronization.Mutex: ThreadSanitizer sees the former (docs/reliability.md, K4).
    private let lock = Lock()
    nonisolated(unsafe) private var state = State()  // guarded by `lock`
    private let jobsWaiting = DispatchSemaphore(value: 0)
    /// Called with (waiting, running) whenever either changes, for the metrics; under `lock`, so that
    /// the counts arrive in the order they were taken and the last call is the queue as it stands.
    private let onChange: @Sendable (Int, Int) -> Void

    /// Throws where the system refuses one of the workers' threads (`SystemThread.StartFailure`):
    /// a server with fewer workers than it was asked for would answer 503 where its operator
    /// planned capacity, so it does not start. The workers already started then wait, idle, for a
    /// job that never comes.
    package init(workers: Int, maxQueue: Int,
                 onChange: @escaping @Sendable (_ waiting: Int, _ running: Int) -> Void = { _, _ in }) throws(SystemThread.StartFailure) {
        self.workers = max(1, workers)
        self.maxQueue = max(0, maxQueue)
        self.onChange = onChange
        for index in 0..<self.workers {
            // A stack as large as the main thread's: the forward pass recurses through the graph.
            try SystemThread.detach(name: "inference \(index)", stackSize: 8 << 20) { [self] in work() }
        }
    }

    /// Jobs waiting for a worker, and jobs running.
    package var load: (waiting: Int, running: Int) { lock.withLock { (state.jobs.count, state.running) } }

    /// Runs `work` on a worker thread and returns its result; throws `Full` at once when every worker
    /// is busy and `maxQueue` jobs already wait.
    package func submit<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await ThreadHandoff.await { (deliver: @escaping @Sendable (Result<T, any Error>) -> Void) in
            let job: Job = {
                let result = Result { try work() }
                return { deliver(result) }
            }
            let accepted = lock.withLock { () -> Bool in
                guard state.jobs.count + state.running < workers + maxQueue else { return false }
                state.jobs.append(job)
                onChange(state.jobs.count, state.running)
                return true
            }
            guard accepted else { return deliver(.failure(Full())) }
            jobsWaiting.signal()
        }
    }

    private func work() {
        while true {
            jobsWaiting.wait()
            let job = lock.withLock {
                state.running += 1
                let job = state.jobs.removeFirst()
                onChange(state.jobs.count, state.running)
                return job
            }
            let handOver = job()
            lock.withLock {
                state.running -= 1
                onChange(state.jobs.count, state.running)
            }
            handOver()
        }
    }
}
