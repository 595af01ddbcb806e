import FoundationEssentials
import Glibc
import Synchronization
import YOLOPlatform

/// A fixed set of worker threads that run the chunks of one `parallelFor` at a time, with the
/// caller working too; while one job runs, a `parallelFor` from another thread runs serially on
/// that thread, so concurrent detections share the cores instead of queueing.
///
/// A forward pass is hundreds of `parallelFor`s, some only tens of microseconds long, so waking a
/// sleeping thread for each would cost as much as the work: a worker that finishes spins for up to
/// `spinTime` watching for the next job before it sleeps, and the caller spins the same way for
/// the workers to finish (as OpenMP runtimes do, with KMP_BLOCKTIME). A spinning thread yields its
/// core between rounds of polls, so that where threads outnumber cores (two processes of two
/// threads on two cores, more threads than a container's CPU quota) the thread with work runs
/// instead of waiting out the spin.
///
/// A job is cut into more chunks than threads where it has the iterations. Each thread owns one
/// contiguous share of them (the caller the first, worker `w` share `w + 1`) and runs it in order;
/// then it takes the last unclaimed chunk of the thread with the most left, until none is left. So
/// a thread works on the same part of every feature map from one layer to the next (most kernels
/// cut their work along the output positions) and reads mostly what it wrote itself, from its own
/// caches, where chunks claimed in order as the threads came free went to either thread from one
/// layer to the next (docs/performance.md, 2026-11-27). And on a host whose cores run at unequal
/// speeds (a neighbour on a sibling hyperthread) the faster thread still takes over the slower
/// one's unclaimed chunks instead of waiting for them (2026-11-25). A job of a few iterations (up
/// to `wholeIterationsPerThread` a thread: a convolution's blocks) is claimed one iteration at a
/// time; cut into `chunksPerThread` chunks a thread, its chunks would hold one or two blocks, and
/// the thread that drew more twos would finish a block after the other.
///
/// Workers are started as the thread count grows and never stopped; those beyond the count in use
/// (after `setThreads` lowered it: the pool starts with every core, `--threads 2` comes later) are
/// parked on a condition of their own, so that they neither take chunks nor spin, nor wake at each
/// job's broadcast.
package final class WorkerPool: @unchecked Sendable {
    /// Chunks per thread of a job of many iterations, for the threads that come free first to take over.
    package static let chunksPerThread = 4
    /// Iterations per thread up to which each iteration is a chunk of its own.
    package static let wholeIterationsPerThread = 16
    private let condition = Condition()
    // Guarded by `condition`:
    private var threadCount = 1
    private var workers = 0
    private var job: ((Int) -> Void)?
    /// Each thread's chunks not yet claimed (thread 0 the caller, thread `w + 1` worker `w`);
    /// `unclaimed` in all.
    private var shares: [Range<Int>] = []
    private var unclaimed = 0
    private var unfinished = 0
    private var generation = 0
    /// Whether the caller sleeps until `unfinished` is 0: only then does the last chunk wake it.
    private var callerIsWaiting = false
    // Mirrors of `generation` and `unfinished` that a spinning thread reads without the lock.
    private let publishedGeneration = Atomic<Int>(0)
    private let unfinishedChunks = Atomic<Int>(0)
    /// How long a thread spins before it sleeps.
    private let spinTime = Duration.microseconds(200)
    /// How long a thread spins before it yields its core between polls.
    private let yieldTime = Duration.microseconds(5)

    /// Where the workers beyond the count in use wait; `workersInUse` is guarded by it.
    private let parking = Condition()
    private var workersInUse = 0

    /// Each worker's stack, in bytes.
    private let workerStackSize: Int

    /// - Parameter workerStackSize: 1 MiB by default (the kernels' chunks recurse nowhere); tests
    ///   ask for more than the address space to see the pool run on with the threads it has.
    package init(threads: Int, workerStackSize: Int = 1 << 20) {
        self.workerStackSize = workerStackSize
        setThreads(threads)
    }

    /// The threads one `run` uses, the caller included.
    package var threads: Int {
        condition.lock()
        defer { condition.unlock() }
        return threadCount
    }

    /// The threads `setThreads` put to use, and why the system refused the next one if it did.
    package struct Grant: Sendable {
        /// The threads one `run` uses from now on, the caller included.
        package let threads: Int
        /// `pthread_create`'s refusal of the first worker that did not start, where `threads` is
        /// fewer than asked for.
        package let refusal: SystemThread.StartFailure?
    }

    /// Uses `count` threads from now on, starting workers as needed (they are never stopped: the
    /// pool lives as long as the process), and returns the threads it uses: fewer than `count`
    /// where the system refuses a worker (`ulimit -u`, a control group's `pids.max`, the stacks'
    /// address space under `ulimit -v`), with the system's reason. The results are the same for
    /// any count, so the pool runs with the threads it has rather than stopping the process.
    @discardableResult
    package func setThreads(_ count: Int) -> Grant {
        condition.lock()
        defer { condition.unlock() }
        if shares.count < count {  // never shrunk: a job in flight may index them
            shares += Array(repeating: 0..<0, count: count - shares.count)
        }
        // A new worker waits for `condition`, which is held until the counts below are set.
        var refusal: SystemThread.StartFailure?
        while workers < count - 1 {
            let index = workers
            do {
                try SystemThread.detach(name: "kernels \(index)", stackSize: workerStackSize) {
                    ParallelRegion.enter()  // for good: a worker only ever runs chunks
                    self.work(index: index)
                }
            } catch {
                refusal = error
                break
            }
            workers += 1
        }
        threadCount = min(count, workers + 1)
        parking.lock()
        workersInUse = threadCount - 1
        parking.broadcast()
        parking.unlock()
        return Grant(threads: threadCount, refusal: refusal)
    }

    /// Whether the current thread is running chunks of a job (of any pool).
    package static var isInsideJob: Bool { ParallelRegion.isInside }

    /// The chunks a job of `iterations` is cut into on `threads` threads.
    package static func chunkCount(iterations: Int, threads: Int) -> Int {
        iterations <= wholeIterationsPerThread * threads ? iterations : chunksPerThread * threads
    }

    package func run(_ iterations: Int, _ body: (Int) -> Void) {
        let threads = self.threads
        let parts = Self.chunkCount(iterations: iterations, threads: threads)
        guard threads > 1, parts > 1, !ParallelRegion.isInside else {
            for i in 0..<iterations { body(i) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let chunk: (Int) -> Void = { part in
                for i in evenShare(part, of: parts, count: iterations) { body(i) }
            }
            condition.lock()
            // One job at a time: a caller on another thread (two detections at once) runs serially.
            guard job == nil else {
                condition.unlock()
                for i in 0..<iterations { body(i) }
                return
            }
            job = chunk
            for t in shares.indices {
                shares[t] = t < threads ? evenShare(t, of: threads, count: parts) : 0..<0
            }
            unclaimed = parts
            let first = claimChunk(thread: 0)!  // the caller runs its first chunk at once
            unfinished = parts - 1
            unfinishedChunks.store(unfinished, ordering: .releasing)
            generation += 1
            publishedGeneration.store(generation, ordering: .releasing)
            condition.broadcast()
            condition.unlock()

            ParallelRegion.enter()
            chunk(first)
            condition.lock()
            runUnclaimedChunks(of: chunk, thread: 0)  // then the chunks nobody has taken yet, as a worker does
            condition.unlock()
            ParallelRegion.leave()

            _ = spin { unfinishedChunks.load(ordering: .acquiring) == 0 }
            condition.lock()
            callerIsWaiting = true
            while unfinished > 0 { condition.wait() }
            callerIsWaiting = false
            job = nil
            condition.unlock()
        }
    }

    /// A worker's life: wait for a job with chunks left, run those nobody has taken, repeat; parked
    /// while `index` is beyond the workers in use.
    private func work(index: Int) {
        var seen = 0
        condition.lock()
        while true {
            // Sleep until a job has a chunk left that nobody took.
            while generation == seen || unclaimed == 0 || job == nil || index >= threadCount - 1 {
                if generation != seen { seen = generation }
                if index >= threadCount - 1 {
                    condition.unlock()
                    parking.lock()
                    while index >= workersInUse { parking.wait() }
                    parking.unlock()
                    condition.lock()
                    continue
                }
                let observed = seen
                condition.unlock()
                let published = spin { publishedGeneration.load(ordering: .acquiring) != observed }
                condition.lock()
                // Re-checked under the lock: a job published after this check is broadcast to the wait.
                if !published && generation == observed { condition.wait() }
            }
            guard let job else { continue }
            runUnclaimedChunks(of: job, thread: index + 1)
        }
    }

    /// Claims `thread`'s next chunk (`claimChunk`), runs it and reports it done, until every chunk is taken; the
    /// last chunk to finish wakes the caller if it sleeps (and no one otherwise: a broadcast would
    /// also wake the workers asleep between jobs, for nothing). Called, and returns, with
    /// `condition` locked; runs each chunk with it unlocked.
    ///
    /// `job` is `@escaping` although it is only called here: Swift 6.3 at `-Onone` (every debug
    /// build, including those of packages that depend on SwiftYOLO) leaks one retain of a stored
    /// closure passed on as a non-escaping argument, so the worker kept the job alive after `run`
    /// returned and `withoutActuallyEscaping` trapped ("closure argument was escaped") at the first
    /// `parallelFor` the worker joined.
    private func runUnclaimedChunks(of job: @escaping (Int) -> Void, thread: Int) {
        while let part = claimChunk(thread: thread) {
            condition.unlock()
            job(part)
            condition.lock()
            unfinished -= 1
            unfinishedChunks.store(unfinished, ordering: .releasing)
            if unfinished == 0 && callerIsWaiting { condition.broadcast() }
        }
    }

    /// The next chunk for `thread`: its own next one, else the last one of the thread with the most
    /// left; nil when every chunk is claimed. With `condition` locked.
    private func claimChunk(thread: Int) -> Int? {
        guard unclaimed > 0 else { return nil }
        unclaimed -= 1
        if let own = shares[thread].popFirst() { return own }
        var fullest = 0
        for t in shares.indices where shares[t].count > shares[fullest].count { fullest = t }
        return shares[fullest].popLast()
    }

    /// Polls `done` for up to `spinTime`; whether it came true. Once it has polled for `yieldTime`,
    /// the thread yields its core (`sched_yield`) after every 64 polls: where another thread waits
    /// for the core, that one runs; where none does, the call returns at once (0.4 µs here). Without
    /// it, a spinning thread that shared its core with one that had work held the core for its time
    /// slice: two processes of two threads on two cores took 25% longer a pass than with one thread
    /// each (docs/performance.md). The short waits between a pass's jobs make no call.
    private func spin(until done: () -> Bool) -> Bool {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + spinTime, yieldsFrom = start + yieldTime
        while true {
            for _ in 0..<64 where done() { return true }
            let now = clock.now
            if now >= deadline { return done() }
            if now >= yieldsFrom { sched_yield() }
        }
    }
}

/// Whether the current thread is running chunks of a job (a worker, or the caller while it runs its
/// own): then a `parallelFor` inside runs serially. A thread-specific value, set and cleared on the
/// caller's way into each job while the workers already run theirs: an entry of
/// `Thread.threadDictionary` cost a dictionary update each time.
private enum ParallelRegion {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "WorkerPool: pthread_key_create failed (\(status))")
        return key
    }()

    static var isInside: Bool { pthread_getspecific(key) != nil }
    static func enter() { pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1)) }
    static func leave() { pthread_setspecific(key, nil) }
}
