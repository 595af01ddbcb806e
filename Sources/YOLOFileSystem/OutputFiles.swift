#if canImport(Glibc)
import Glibc
import YOLOPlatform
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials

/// The files a command writes, which it never reads as inputs: standard output when it is a
/// regular file (`detect --json link.jpg >> c.jpg`, with `link.jpg` a link to `c.jpg`, appended to
/// the image it was reading), and every file `NewFile` has created (`detect --save out a.jpg out`
/// read the annotated `out/a.png` back in when it reached the directory `out`). Files are told
/// apart by device and inode, so no other path, link or symbolic link to one gets past.
///
/// Kept only once `start()` has been called, as `swift-yolo` does when it starts: a process that
/// goes on after a command (the tests, a library user) may read back what it wrote.
package enum OutputFiles {
    /// A file's device and inode.
    struct Identity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }

        /// The file at `path`, symbolic links followed; `nil` if it cannot be examined.
        init?(path: String) {
            var status = stat()
            guard PathEncoding.withCString(path, { stat($0, &status) }) == 0 else { return nil }
            self.init(status)
        }
    }

    private struct Recorded {
        var started = false
        /// Standard output's file, when it is a regular file (a pipe, terminal or device is never an input).
        var standardOutput: Identity?
        var created: Set<Identity> = []
    }

    // A pthread mutex (`Lock`) rather than Synchronization.Mutex: ThreadSanitizer sees the former (docs/reliability.md, K4).
    private static let lock = Lock()
    nonisolated(unsafe) private static var recorded = Recorded()  // guarded by `lock`

    /// Starts keeping outputs from inputs: notes standard output's file, if it is a regular one, and
    /// from now on every file `NewFile` creates. Called when the process starts, before it opens
    /// anything (with standard output closed, the first file opened would get its number).
    package static func start() {
        var status = stat()
        let standardOutput = fstat(STDOUT_FILENO, &status) == 0 && status.st_mode & S_IFMT == S_IFREG ? Identity(status) : nil
        lock.withLock {
            recorded.started = true
            recorded.standardOutput = standardOutput
        }
    }

    /// Records the file `NewFile` has just created at `path`.
    static func recordCreated(_ path: String) {
        guard lock.withLock({ recorded.started }), let identity = Identity(path: path) else { return }
        lock.withLock { _ = recorded.created.insert(identity) }
    }

    /// Why the file of `status` must not be read as an input, or `nil` when it may be.
    package static func refusal(_ status: stat) -> String? {
        let identity = Identity(status)
        return lock.withLock {
            if identity == recorded.standardOutput { return "it is the file standard output is written to" }
            return recorded.created.contains(identity) ? "this run wrote it" : nil
        }
    }

    /// Whether this run created the file at `path` (directory listings pass over it).
    package static func wasCreated(_ path: String) -> Bool {
        // Most runs create nothing before they list a directory: then no file is examined.
        guard !lock.withLock({ recorded.created.isEmpty }), let identity = Identity(path: path) else { return false }
        return lock.withLock { recorded.created.contains(identity) }
    }
}
