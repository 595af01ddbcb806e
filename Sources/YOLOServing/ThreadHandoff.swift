import FoundationEssentials
import Glibc
import YOLOPlatform

/// Hands a result from a thread of our own to the task that awaits it, in a way ThreadSanitizer can
/// follow.
///
/// A continuation alone orders the two for the program. But when the thread resumes it before the
/// task has finished suspending, Swift's concurrency runtime lets the task go on on its own thread
/// without telling ThreadSanitizer (`swift_continuation_await` calls no `_swift_tsan_acquire` on
/// that path), and everything the thread wrote is reported as racing with the task's reads. Here the
/// thread resumes while holding a lock that the task takes once it is running again, so the order
/// is also one that ThreadSanitizer sees.
package enum ThreadHandoff {
    /// Calls `start` with a `deliver` function, which another thread calls once with the result, and
    /// returns that result (or throws its error).
    package static func await<T: Sendable>(
        _ start: (_ deliver: @escaping @Sendable (Result<T, any Error>) -> Void) -> Void
    ) async throws -> T {
        let order = Lock()
        let value = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            start { result in order.withLock { continuation.resume(with: result) } }
        }
        order.withLock {}
        return value
    }
}
