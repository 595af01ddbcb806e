import CSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing outputs that never replace an existing file (an input, or anyone else's file) and are
/// never seen half-written.
package enum NewFile {
    /// Writes a new file named `path` or, when that name is taken, the first free one of `stem_2.ext`,
    /// `stem_3.ext`, …, and returns the path written.
    ///
    /// `contents` writes into a descriptor open on a hidden temporary in the same directory
    /// (`.NAME.PID-RANDOM.tmp`, created exclusively, so never through a planted link; NAME cut short
    /// where the whole would pass a file name's 255 bytes). The temporary
    /// is then synced and renamed to the final name only if that name is still free, atomically
    /// (`RENAME_NOREPLACE`): readers never see a partial file, and a failure (full disk, file-size
    /// limit, an error thrown by `contents`) leaves neither file. While it is written, the temporary
    /// is the one a second interrupt removes (`Interruption`).
    package static func write(_ path: String, _ contents: (Int32) throws -> Void) throws -> String {
        let (directory, name) = split(path)
        if name.isEmpty { throw FileSystemError.unwritable(path: path, reason: "the path names a directory") }
        let temporary = "\(directory).\(temporaryStem(name)).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = PathEncoding.withCString(temporary) {
            open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw FileSystemError.unwritable(path: path, reason: systemErrorDescription()) }
        PathEncoding.withCString(temporary) { sy_set_pending_temporary($0) }
        var finished = false
        defer {
            if !finished { _ = PathEncoding.withCString(temporary) { unlink($0) } }
            sy_set_pending_temporary(nil)
        }
        do {
            try contents(descriptor)
        } catch {
            close(descriptor)
            throw error
        }
        if fsync(descriptor) != 0 {
            let reason = systemErrorDescription()
            close(descriptor)
            throw FileSystemError.unwritable(path: path, reason: "writing failed: \(reason)")
        }
        if close(descriptor) != 0 { throw FileSystemError.unwritable(path: path, reason: "writing failed: \(systemErrorDescription())") }
        for number in 1...10_000 {
            let candidate = numbered(directory: directory, name: name, number)
            let renamed = PathEncoding.withCString(temporary) { from in
                PathEncoding.withCString(candidate) { to in sy_rename_noreplace(from, to) }
            }
            if renamed == 0 {
                finished = true
                OutputFiles.recordCreated(candidate)
                return candidate
            }
            guard errno == EEXIST else { throw FileSystemError.unwritable(path: candidate, reason: systemErrorDescription()) }
        }
        throw FileSystemError.unwritable(path: path, reason: "it and the next 9,999 numbered names all exist")
    }

    /// `name`, or as many of its first characters as take at most 200 bytes: with the dots, the
    /// process id and the random number (at most 30 bytes more), the temporary's name stays within
    /// the 255 bytes of a file name wherever the final name does.
    static func temporaryStem(_ name: String) -> Substring {
        var stem = Substring(name)
        while PathEncoding.bytes(of: String(stem)).count > 200 { stem = stem.dropLast() }
        return stem
    }

    /// `directory/name` for number 1, else `directory/stem_number.ext`.
    static func numbered(directory: String, name: String, _ number: Int) -> String {
        guard number > 1 else { return directory + name }
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let suffix = dot.map { String(name[$0...]) } ?? ""
        return "\(directory)\(stem)_\(number)\(suffix)"
    }

    /// The directory part with its slash (or empty) and the last component.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }
}
