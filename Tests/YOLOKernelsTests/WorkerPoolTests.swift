import Foundation
import Testing
import YOLOKernels

/// The worker pool keeps to the thread count it was last given: a pool started with every core and
/// then set to fewer (`--threads 2` on a 16-core host) once ran each job on up to four chunks' worth
/// of threads per thread asked for, every idle worker joining in.
@Suite struct WorkerPoolTests {
    /// Shared state behind an NSLock, which ThreadSanitizer follows (it does not see Synchronization's Mutex).
    final class Locked<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value
        init(_ value: Value) { self.value = value }
        func withLock<T>(_ body: (inout Value) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(&value)
        }
    }

    /// The distinct threads that ran some iteration of a job of `iterations`, each of which sleeps
    /// `microseconds` so that every woken worker has the time to claim a chunk.
    static func threadsUsed(by pool: WorkerPool, iterations: Int = 64, microseconds: UInt32 = 200) -> Int {
        let seen = Locked<Set<UInt>>([])
        pool.run(iterations) { _ in
            let thread = UInt(pthread_self())
            seen.withLock { _ = $0.insert(thread) }
            usleep(microseconds)
        }
        return seen.withLock { $0.count }
    }

    @Test(arguments: [1, 2, 3])
    func keepsToALoweredThreadCount(_ threads: Int) {
        let pool = WorkerPool(threads: 8)
        _ = Self.threadsUsed(by: pool)  // every worker started, and spinning or asleep
        pool.setThreads(threads)
        #expect(pool.threads == threads)
        for _ in 0..<5 {
            let used = Self.threadsUsed(by: pool)
            #expect(used <= threads, "set to \(threads) threads, a job ran on \(used)")
        }
    }

    /// Where the system refuses the workers (their stacks past the address space here; `ulimit -u`,
    /// `pids.max` or `ulimit -v` in use), the pool says so by the count it returns, with the
    /// system's reason, and runs every iteration once on the threads it has, instead of stopping
    /// the process.
    @Test func runsOnTheThreadsTheSystemGives() {
        let pool = WorkerPool(threads: 4, workerStackSize: 1 << 50)
        #expect(pool.threads == 1)
        let grant = pool.setThreads(8)
        #expect(grant.threads == 1)
        let reason = grant.refusal.map { "\($0)" } ?? "none"
        #expect(grant.refusal?.status ?? 0 != 0 && reason.hasPrefix("could not start thread 'kernels 0': ") && reason.count > 37, "\(reason)")
        let runs = Locked([Int](repeating: 0, count: 100))
        pool.run(100) { i in runs.withLock { $0[i] += 1 } }
        #expect(runs.withLock { $0 } == [Int](repeating: 1, count: 100))
    }

    /// A job of few iterations (a convolution's blocks) is claimed an iteration at a time, so that
    /// no thread draws a chunk of two blocks at the end while the other waits; a long one in
    /// `chunksPerThread` chunks a thread.
    @Test func chunksOfFewAndManyIterations() {
        let few = WorkerPool.wholeIterationsPerThread
        #expect(WorkerPool.chunkCount(iterations: 14, threads: 2) == 14)
        #expect(WorkerPool.chunkCount(iterations: 2 * few, threads: 2) == 2 * few)
        #expect(WorkerPool.chunkCount(iterations: 2 * few + 1, threads: 2) == 2 * WorkerPool.chunksPerThread)
        #expect(WorkerPool.chunkCount(iterations: 1000, threads: 3) == 3 * WorkerPool.chunksPerThread)
    }

    /// Either way, every iteration runs once.
    @Test(arguments: [1, 7, 14, 2 * WorkerPool.wholeIterationsPerThread, 2 * WorkerPool.wholeIterationsPerThread + 1, 1000])
    func runsEveryIterationOnce(_ iterations: Int) {
        let pool = WorkerPool(threads: 2)
        let runs = Locked([Int](repeating: 0, count: iterations))
        pool.run(iterations) { i in runs.withLock { $0[i] += 1 } }
        #expect(runs.withLock { $0 } == [Int](repeating: 1, count: iterations))
    }

    /// Each thread runs its own contiguous share of the chunks first, in order: the caller the first
    /// half, the worker the second (so that a thread keeps to the same part of each feature map);
    /// then it takes chunks from the back of the other's share. Each iteration takes 2 ms, so the
    /// worker, spinning after the warm-up job or woken by it, starts within the caller's first
    /// sixteen; a worker that finds its share taken fails the test.
    @Test func threadsRunTheirOwnShareFirst() {
        let pool = WorkerPool(threads: 2)
        _ = Self.threadsUsed(by: pool)  // the worker started
        let caller = UInt(pthread_self())
        let order = Locked<[(thread: UInt, iteration: Int)]>([])
        let iterations = 2 * WorkerPool.wholeIterationsPerThread  // a chunk each
        pool.run(iterations) { i in
            order.withLock { $0.append((UInt(pthread_self()), i)) }
            usleep(2000)
        }
        let runs = order.withLock { $0 }
        let byCaller = runs.filter { $0.thread == caller }.map(\.iteration)
        let byWorker = runs.filter { $0.thread != caller }.map(\.iteration)
        let half = iterations / 2
        // Each runs from the start of its own share, ascending, and from the back of the other's, descending.
        let (callerOwn, callerTaken) = (byCaller.filter { $0 < half }, byCaller.filter { $0 >= half })
        let (workerOwn, workerTaken) = (byWorker.filter { $0 >= half }, byWorker.filter { $0 < half })
        #expect(callerOwn == Array(0..<callerOwn.count), "the caller's iterations: \(byCaller)")
        #expect(workerOwn == Array(half..<(half + workerOwn.count)), "the worker's iterations: \(byWorker)")
        #expect(byWorker.first == half, "the worker's iterations: \(byWorker)")
        #expect(callerTaken == callerTaken.sorted(by: >) && workerTaken == workerTaken.sorted(by: >))
        #expect(runs.count == iterations && Set(runs.map(\.iteration)) == Set(0..<iterations))
    }

    /// More threads than chunks: the shares of some threads are empty, and every chunk runs once.
    @Test func fewerChunksThanThreads() {
        let pool = WorkerPool(threads: 8)
        for iterations in [2, 3, 5] {
            let runs = Locked([Int](repeating: 0, count: iterations))
            pool.run(iterations) { i in runs.withLock { $0[i] += 1 }; usleep(100) }
            #expect(runs.withLock { $0 } == [Int](repeating: 1, count: iterations))
        }
    }

    /// Raised again, the parked workers take part: every iteration runs, on more than one thread.
    @Test func parkedWorkersComeBack() {
        let pool = WorkerPool(threads: 6)
        pool.setThreads(1)
        #expect(Self.threadsUsed(by: pool) == 1)
        pool.setThreads(4)
        let ran = Locked(0)
        pool.run(400) { _ in ran.withLock { $0 += 1 }; usleep(100) }
        #expect(ran.withLock { $0 } == 400)
        // Long jobs (256 × 200 µs), so that a worker woken late on a loaded machine still finds chunks.
        let used = (0..<5).map { _ in Self.threadsUsed(by: pool, iterations: 256) }.max() ?? 0
        #expect(used > 1 && used <= 4, "set to 4 threads, jobs ran on at most \(used)")
    }

    /// A job inside a job runs serially on the thread that runs the outer iteration, the caller's
    /// included, every iteration once; after the outer job the caller's own jobs use the workers again.
    @Test func aJobInsideAJobRunsOnItsThread() {
        let pool = WorkerPool(threads: 3)
        let strays = Locked(0), runs = Locked([Int](repeating: 0, count: 12 * 5))
        pool.run(12) { outer in
            let thread = UInt(pthread_self())
            pool.run(5) { inner in
                if UInt(pthread_self()) != thread { strays.withLock { $0 += 1 } }
                runs.withLock { $0[outer * 5 + inner] += 1 }
            }
            usleep(100)
        }
        #expect(strays.withLock { $0 } == 0, "inner iterations ran on another thread than their outer one")
        #expect(runs.withLock { $0 } == [Int](repeating: 1, count: 12 * 5))
        let used = (0..<5).map { _ in Self.threadsUsed(by: pool, iterations: 256) }.max() ?? 0
        #expect(used > 1, "after a nested job, the caller's jobs ran on one thread only")
    }
}
