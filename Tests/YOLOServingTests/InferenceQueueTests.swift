import Foundation
import YOLOServing
import Testing

struct InferenceQueueTests {
    /// A caller that has its result finds the worker free: with one worker and no room to wait,
    /// requests one after another are never refused (the worker counted itself free only after
    /// handing the result over, and a caller quick enough got a 503 for the worker it had just left).
    @Test func aCallerWithItsResultFindsTheWorkerFree() async throws {
        let queue = try InferenceQueue(workers: 1, maxQueue: 0)
        var refused = 0
        for round in 0..<2000 {
            do {
                #expect(try await queue.submit { round } == round)
            } catch is InferenceQueue.Full {
                refused += 1
            }
        }
        #expect(refused == 0)
    }

    /// Past the workers and `maxQueue` waiting jobs, `submit` refuses at once.
    @Test func aFullQueueRefusesAtOnce() async throws {
        let queue = try InferenceQueue(workers: 1, maxQueue: 1)
        let release = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        async let first: Int = queue.submit { started.signal(); release.wait(); return 1 }
        started.wait()
        async let second: Int = queue.submit { 2 }
        while queue.load.waiting < 1 { try await Task.sleep(for: .milliseconds(1)) }
        await #expect(throws: InferenceQueue.Full.self) { try await queue.submit { 3 } }
        release.signal()
        #expect(try await first == 1)
        #expect(try await second == 2)
    }

    /// The counts reach `onChange` in the order they were taken: once every caller has its result,
    /// the last call said (0, 0). Calls made outside the queue's lock could arrive out of order and
    /// leave the metrics' gauges showing a job running on an idle server.
    @Test func theLastCountsReportedAreTheQueueAtRest() async throws {
        final class LastCounts: @unchecked Sendable {
            let lock = NSLock()
            var counts = (waiting: -1, running: -1)
        }
        let last = LastCounts()
        let queue = try InferenceQueue(workers: 2, maxQueue: 64) { waiting, running in
            // A moment between taking the counts and reporting them, where a race would reorder them.
            for _ in 0..<Int.random(in: 0..<200) { _ = Thread.current }
            last.lock.withLock { last.counts = (waiting, running) }
        }
        var stale = 0
        for _ in 0..<200 {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for job in 0..<8 { group.addTask { try await queue.submit { job } } }
                for try await _ in group {}
            }
            if last.lock.withLock({ last.counts != (0, 0) }) { stale += 1 }
        }
        #expect(stale == 0)
    }
}
