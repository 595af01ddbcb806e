import YOLOFileSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seconds on a monotonic clock, and a way to wait for a moment on it. `FrameSampler` reads time
/// through this so that tests can run it on simulated time.
package protocol FrameClock: AnyObject {
    /// Seconds since an arbitrary, fixed origin.
    func now() -> Double
    /// Returns once `now() >= deadline`, or earlier on an interrupt (`Interruption.signal`).
    func sleep(until deadline: Double)
}

/// The process's monotonic clock (`ContinuousClock`).
package final class SystemFrameClock: FrameClock {
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant

    package init() { origin = clock.now }

    package func now() -> Double {
        let elapsed = clock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    package func sleep(until deadline: Double) {
        // At most a year at a time: a rate of 1e-300 frames a second, or a header's F1:2^63, must
        // not overflow the conversion to whole seconds (a NaN deadline is no wait).
        let wait = min(deadline - now(), Self.longestWait)
        guard wait > 0 else { return }
        var request = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - wait.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR && Interruption.signal == nil { request = remaining }
    }

    /// The longest single wait, in seconds.
    static let longestWait = 365.0 * 86_400
}
