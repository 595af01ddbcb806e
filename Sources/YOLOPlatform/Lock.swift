import Glibc

/// A mutual-exclusion lock: a pthread mutex, which ThreadSanitizer sees (it intercepts
/// `pthread_mutex_lock`; `Synchronization.Mutex`'s futex it does not, docs/reliability.md, K4).
package final class Lock: @unchecked Sendable {
    /// On the heap, so that it never moves; `Condition` waits on it.
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init() {
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }

    package func unlock() { pthread_mutex_unlock(mutex) }

    /// `body`'s result, run with the lock held.
    package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
