import CSystemCalls

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
}
