import Foundation
import SwiftYOLOServer
import Testing

struct InferenceQueueTests {
    /// A caller that has its result finds the worker free: with one worker and no room to wait,
    /// requests one after another are never refused (the worker counted itself free only after
    /// handing the result over, and a caller quick enough got a 503 for the worker it had just left).
    @Test func aCallerWithItsResultFindsTheWorkerFree() async throws {
        let queue = InferenceQueue(workers: 1, maxQueue: 0)
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
        let queue = InferenceQueue(workers: 1, maxQueue: 1)
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
}
