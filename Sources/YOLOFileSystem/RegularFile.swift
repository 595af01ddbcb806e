#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening and reading regular files only. Anything else named as an input (a FIFO, a device, a
/// socket, a directory) is refused from `stat` before any `open`, which on a FIFO would block until
/// a writer appears, and on /dev/zero would never end; so is a file this run writes (`OutputFiles`).
package enum RegularFile {
    /// What kind of file `mode` describes, in words, or `nil` for a regular file.
    static func otherKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "it is a directory"
        case S_IFIFO: "it is a FIFO (named pipe), not a regular file"
        case S_IFCHR: "it is a character device, not a regular file"
        case S_IFBLK: "it is a block device, not a regular file"
        case S_IFSOCK: "it is a socket, not a regular file"
        default: "it is not a regular file"
        }
    }

    /// Why the open file of `status` cannot be read as a stream, or `nil`: a FIFO or a device may be,
    /// as standard input may; a directory and a file this run writes may not.
    package static func streamRefusal(_ status: stat) -> String? {
        status.st_mode & S_IFMT == S_IFDIR ? otherKind(status.st_mode) : OutputFiles.refusal(status)
    }

    /// Throws unless `path` names a regular file (symbolic links followed); never opens it.
    package static func check(_ path: String) throws(FileSystemError) {
        var status = stat()
        guard PathEncoding.withCString(path, { stat($0, &status) }) == 0 else {
            throw .unreadable(path: path, reason: systemErrorDescription())
        }
        if let kind = otherKind(status.st_mode) { throw .unreadable(path: path, reason: kind) }
    }

    /// Opens a regular file for reading and returns its descriptor (the caller closes it) and size.
    /// The kind is checked before the open and again on the open descriptor, so a file swapped for a
    /// FIFO in between cannot block: the open is non-blocking.
    package static func open(_ path: String) throws(FileSystemError) -> (descriptor: Int32, size: Int) {
        try check(path)
        let descriptor = PathEncoding.withCString(path) { Glibc.open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: systemErrorDescription()) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = systemErrorDescription()
            close(descriptor)
            throw .unreadable(path: path, reason: reason)
        }
        if let refusal = otherKind(status.st_mode) ?? OutputFiles.refusal(status) {
            close(descriptor)
            throw .unreadable(path: path, reason: refusal)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return (descriptor, Int(status.st_size))
    }

    /// The whole file, refusing one over `maxBytes`.
    package static func read(_ path: String, maxBytes: Int) throws(FileSystemError) -> [UInt8] {
        let (descriptor, size) = try open(path)
        defer { close(descriptor) }
        if size > maxBytes {
            throw .unreadable(path: path, reason: "the file is \(size) bytes, over the limit of \(maxBytes)")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var total = 0
        var failure: Int32 = 0
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while total < size {
                let n = readRetrying(descriptor, base + total, size - total)
                if n < 0 {
                    failure = errno
                    return
                }
                if n == 0 { break }  // the file shrank while it was read
                total += n
            }
        }
        if failure != 0 { throw .unreadable(path: path, reason: systemErrorDescription(failure)) }
        if total < size { bytes.removeSubrange(total...) }
        return bytes
    }

    /// Reads the whole file in order, handing `body` one chunk of at most `chunkSize` bytes at a time.
    package static func forEachChunk(of path: String, chunkSize: Int = 1 << 20,
                                     _ body: (UnsafeRawBufferPointer) -> Void) throws(FileSystemError) {
        let (descriptor, _) = try open(path)
        defer { close(descriptor) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { chunk.deallocate() }
        while true {
            let n = readRetrying(descriptor, chunk.baseAddress!, chunkSize)
            if n < 0 { throw .unreadable(path: path, reason: systemErrorDescription()) }
            if n == 0 { return }
            body(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
        }
    }

    /// `read(2)`, again when a signal interrupts it before any byte: the bytes read, 0 at the end, or
    /// -1 with `errno` set.
    private static func readRetrying(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        while true {
            let n = Glibc.read(descriptor, buffer, count)
            if n >= 0 || errno != EINTR { return n }
        }
    }
}
