#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Listing and creating directories, names kept byte for byte (`PathEncoding`).
package enum Directory {
    /// One entry of a listing.
    package struct Entry: Sendable, Equatable {
        /// The entry's name (not its path).
        package let name: String
        /// `nil` for a regular file (symbolic links followed); else what it is, in words.
        package let otherKind: String?
        /// Why the entry could not be examined (`stat`'s error: a symbolic link to nothing, a
        /// component without search permission), where it could not; `otherKind` then says so too.
        package let examinationFailure: String?
        package var isRegularFile: Bool { otherKind == nil }
        package var isDirectory: Bool { otherKind == "it is a directory" }

        package init(name: String, otherKind: String?, examinationFailure: String? = nil) {
            (self.name, self.otherKind, self.examinationFailure) = (name, otherKind, examinationFailure)
        }
    }

    /// Whether `path` names a directory (symbolic links followed).
    package static func exists(_ path: String) -> Bool {
        var status = stat()
        return PathEncoding.withCString(path) { stat($0, &status) } == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// The entries of the directory at `path` (not `.` and `..`), sorted by name bytes.
    package static func entries(of path: String) throws(FileSystemError) -> [Entry] {
        guard let stream = PathEncoding.withCString(path, { opendir($0) }) else {
            throw .unreadable(path: path, reason: systemErrorDescription())
        }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }.map { name in
            let string = PathEncoding.string(fromFileSystem: name)
            var status = stat()
            guard PathEncoding.withCString(appending(string, to: path), { stat($0, &status) }) == 0 else {
                let reason = systemErrorDescription()
                return Entry(name: string, otherKind: "it cannot be examined: \(reason)", examinationFailure: reason)
            }
            return Entry(name: string, otherKind: RegularFile.otherKind(status.st_mode))
        }
    }

    /// `directory/name`, without doubling a trailing slash.
    package static func appending(_ name: String, to directory: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Creates `path` and any missing parents (as `mkdir -p`), or does nothing if it is a directory.
    package static func create(_ path: String) throws(FileSystemError) {
        if exists(path) { return }
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        if let slash = trimmed.lastIndex(of: "/"), slash != trimmed.startIndex {
            try create(String(trimmed[..<slash]))
        }
        if PathEncoding.withCString(trimmed, { mkdir($0, 0o777) }) != 0 && !(errno == EEXIST && exists(trimmed)) {
            let reason = errno == EEXIST ? "it exists and is not a directory" : systemErrorDescription()
            throw .unwritable(path: path, reason: reason)
        }
    }
}
