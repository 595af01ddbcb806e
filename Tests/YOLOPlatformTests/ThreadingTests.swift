import Foundation
import Synchronization
import Testing
import YOLOPlatform

/// `Lock`, `Condition` and `SystemThread`, which replace Foundation's `NSLock`, `NSCondition` and
/// `Thread` under the kernels' worker pool, the tensor arena and the server's inference queue.
@Suite struct ThreadingTests {
    /// Several system threads add to one counter under `Lock`, and hand their end over through a
    /// `Condition`: the total is exact, and the waiter wakes only when the last one is done.
    @Test func threadsShareStateUnderTheLockAndSignalTheirEnd() throws {
        final class Shared: @unchecked Sendable {
            let lock = Lock(), done = Condition()
            var total = 0, finished = 0
        }
        let shared = Shared(), threads = 4, additions = 20_000
        for index in 0..<threads {
            try SystemThread.detach(name: "test \(index)", stackSize: 256 << 10) {
                for _ in 0..<additions { shared.lock.withLock { shared.total += 1 } }
                shared.done.lock()
                shared.finished += 1
                shared.done.broadcast()
                shared.done.unlock()
            }
        }
        shared.done.lock()
        while shared.finished < threads { shared.done.wait() }
        shared.done.unlock()
        #expect(shared.lock.withLock { shared.total } == threads * additions)
    }

    /// The thread's name as the system shows it: `swift-yolo NAME` cut to 15 bytes.
    @Test func aThreadCarriesItsName() throws {
        let names = Mutex<String?>(nil), ended = Condition()
        try SystemThread.detach(name: "inference 12") {
            let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            ended.lock()
            names.withLock { $0 = name ?? "" }
            ended.signal()
            ended.unlock()
        }
        ended.lock()
        while names.withLock({ $0 }) == nil { ended.wait() }
        ended.unlock()
        #expect(names.withLock { $0 } == "swift-yolo infe\n")
    }

    /// A thread the system refuses (here a stack of 1 PiB, past x86-64's and aarch64's 47- or 48-bit
    /// user address space) is an error naming the thread and the reason, and its body never runs.
    @Test func aRefusedThreadIsAnErrorNotACrash() {
        let ran = Mutex(false)
        #expect {
            try SystemThread.detach(name: "too large", stackSize: 1 << 50) { ran.withLock { $0 = true } }
        } throws: { error in
            let failure = error as? SystemThread.StartFailure
            return failure?.name == "too large" && failure?.status != 0
                && "\(error)".hasPrefix("could not start thread 'too large': ")
        }
        #expect(!ran.withLock { $0 })
    }

    /// `withLock` passes its body's error through and leaves the lock free.
    @Test func withLockRethrowsAndUnlocks() {
        struct Refused: Error {}
        let lock = Lock()
        #expect(throws: Refused.self) { try lock.withLock { throw Refused() } }
        #expect(lock.withLock { 42 } == 42)
    }
}
