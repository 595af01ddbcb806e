import Glibc

/// A lock with a condition variable, `NSCondition`'s operations on a pthread mutex and condition:
/// `wait()` (lock held) releases the lock until another thread signals, and holds it again on return.
package final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        precondition(pthread_mutex_init(mutex, nil) == 0 && pthread_cond_init(condition, nil) == 0,
                     "pthread_mutex_init or pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }

    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for a `signal()` or `broadcast()`, the lock released meanwhile; it may also return
    /// without one (a spurious wake-up), so callers wait in a loop on their own condition.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes one waiting thread.
    package func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
