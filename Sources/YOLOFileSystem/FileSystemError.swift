import FoundationEssentials
import Glibc

/// Why a file could not be read, listed, created or written. Every case names the path and says
/// what is wrong in words (never a bare error code).
package enum FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be opened or read: missing, no permission, a directory, a FIFO, a device.
    case unreadable(path: String, reason: String)
    /// A file or directory could not be created or written.
    case unwritable(path: String, reason: String)

    package var path: String {
        switch self {
        case let .unreadable(path, _), let .unwritable(path, _): path
        }
    }

    package var description: String {
        switch self {
        case let .unreadable(path, reason): "cannot read '\(path)': \(reason)"
        case let .unwritable(path, reason): "cannot write '\(path)': \(reason)"
        }
    }
}

extension FileSystemError: LocalizedError {
    /// The same one-line message as `description`: the file or input, and what is wrong with it.
    package var errorDescription: String? { description }
}
