import CSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// SIGINT and SIGTERM as a flag that long loops check between units of work (an image, a frame),
/// so that an interrupted run finishes the line it is writing, leaves no temporary file and exits
/// 128 + signal. A second signal ends the process at once (removing the temporary being written).
package enum Interruption {
    /// Installs the handlers (once, early in `main`).
    package static func install() { sy_install_interrupt_handlers() }

    /// The first interrupting signal received, or `nil`.
    package static var signal: Int32? {
        let received = sy_interrupt_signal()
        return received == 0 ? nil : received
    }

    /// Whether forward passes stop at their next layer once a signal has come (`passStopSignal`).
    private static let passesStop = Atomic<Bool>(false)

    /// Makes forward passes stop at their next layer, throwing `StoppedPass`, once SIGINT or SIGTERM
    /// has come: for the commands that run one detection after another, where a pass of a large
    /// input takes seconds to minutes. Not `serve`, which answers every request it accepted.
    package static func stopForwardPasses() { passesStop.store(true, ordering: .relaxed) }

    /// The signal a forward pass stops at (`stopForwardPasses`), or `nil`: checked between layers.
    package static var passStopSignal: Int32? { passesStop.load(ordering: .relaxed) ? signal : nil }

    /// A forward pass stopped at a layer's end by SIGINT or SIGTERM (`stopForwardPasses`); its
    /// image has no result.
    package struct StoppedPass: Error, CustomStringConvertible {
        package let signal: Int32
        package init(signal: Int32) { self.signal = signal }
        package var description: String { "the forward pass stopped at signal \(signal)" }
    }

    /// What one interruptible `read` gave.
    package enum ReadResult: Equatable {
        /// This many bytes, at least one.
        case bytes(Int)
        /// The end of the input.
        case end
        /// SIGINT or SIGTERM came, before the read or during it.
        case interrupted(signal: Int32)
        /// `read(2)` failed with this `errno` (never EINTR).
        case failed(errno: Int32)
    }

    /// One `read(2)` of up to `count` bytes that SIGINT or SIGTERM ends. A signal that came before
    /// the read (during the last image, say) would not interrupt it, so it is checked first; a read
    /// that another signal interrupts is tried again.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> ReadResult {
        while true {
            if let signal { return .interrupted(signal: signal) }
            let result = systemRead(descriptor, buffer, count)
            if result > 0 { return .bytes(result) }
            if result == 0 { return .end }
            let code = errno
            if code != EINTR { return .failed(errno: code) }
        }
    }
}

/// `read(2)`, named apart from `Interruption.read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
