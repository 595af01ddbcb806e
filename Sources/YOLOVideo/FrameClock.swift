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
        // In slices, looking at the signal between them: a sanitizer's runtime may run the handler
        // only after the sleep it interrupted. A slice also never overflows the conversion to whole
        // seconds, as a rate of 1e-300 frames a second or a header's F1:2^63 did; a NaN deadline is no wait.
        while Interruption.signal == nil {
            let wait = min(deadline - now(), Self.slice)
            guard wait > 0 else { return }
            var request = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - wait.rounded(.down)) * 1e9))
            _ = nanosleep(&request, nil)  // woken early or not, the loop looks at the time and the signal again
        }
    }

    /// The longest single sleep, in seconds.
    static let slice = 0.25
}
