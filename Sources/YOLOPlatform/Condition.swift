import Glibc

/// A lock with a condition variable, `NSCondition`'s operations on a `Lock` and a pthread
/// condition: `wait()` (lock held) releases the lock until another thread signals, and holds it
/// again on return.
package final class Condition: @unchecked Sendable {
    private let mutex = Lock()
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        condition.initialize(to: pthread_cond_t())
        precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    package func lock() { mutex.lock() }

    package func unlock() { mutex.unlock() }

    /// Waits for a `signal()` or `broadcast()`, the lock released meanwhile; it may also return
    /// without one (a spurious wake-up), so callers wait in a loop on their own condition.
    package func wait() { pthread_cond_wait(condition, mutex.mutex) }

    /// Wakes one waiting thread.
    package func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
