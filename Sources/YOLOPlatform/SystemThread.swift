import CSystemCalls
import Glibc

/// Threads of the system's own, outside Swift concurrency's pool: the kernels' workers and the
/// server's inference workers, which block while they wait for work.
package enum SystemThread {
    /// Why a thread did not start: `pthread_create`'s error (`EAGAIN` when the process is out of
    /// threads under `ulimit -u` or a control group's `pids.max`, or of address space for the
    /// stack under `ulimit -v`).
    package struct StartFailure: Error, CustomStringConvertible {
        package let name: String
        package let status: Int32
        package var description: String { "could not start thread '\(name)': \(String(cString: strerror(status)))" }
    }

    /// Starts `body` on a new detached thread named `name` (`swift-yolo NAME` as far as the
    /// system's 15 bytes of a thread name go, as `top -H` shows it) with a stack of `stackSize`
    /// bytes (the system's default if `nil`). Throws, and never runs `body`, where the system
    /// refuses the thread.
    package static func detach(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) throws(StartFailure) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, max(stackSize, Int(PTHREAD_STACK_MIN))) }
        let start = Start(name: "swift-yolo \(name)", body: body)
        let context = Unmanaged.passRetained(start).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
            sy_name_thread(start.name)
            start.body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Start>.fromOpaque(context).release()
            throw StartFailure(name: name, status: status)
        }
    }

    /// What a new thread takes over: its name and its work.
    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) { (self.name, self.body) = (name, body) }
    }
}
