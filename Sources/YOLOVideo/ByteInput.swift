import YOLOFileSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered sequential reading from a file descriptor (a file, or standard input for `-`), with
/// the two operations a YUV4MPEG2 stream needs: a header line, and a block of exactly n bytes.
final class ByteInput {
    /// The name used in errors: the path, or `stdin`.
    let name: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// A regular file (a path, or standard input redirected from one) never makes a read wait.
    private let isRegularFile: Bool
    /// The bytes read ahead, `start ..< end` not yet consumed: allocated last in `init` (after
    /// everything that can throw), freed in `deinit`.
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var reachedEnd = false

    /// Opens `path` for reading; `-` is standard input.
    init(path: String) throws(VideoError) {
        if path == "-" {
            name = "stdin"
            descriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            name = path
            // A FIFO is a stream like stdin and may block until its writer starts; a directory is refused.
            let fd = PathEncoding.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
            guard fd >= 0 else { throw .unreadable(source: path, reason: systemErrorDescription()) }
            var info = stat()
            if fstat(fd, &info) == 0, let refusal = RegularFile.streamRefusal(info) {
                close(fd)
                throw .unreadable(source: path, reason: refusal)
            }
            descriptor = fd
            ownsDescriptor = true
        }
        var info = stat()
        isRegularFile = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        buffer = .allocate(byteCount: 1 << 16, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        if ownsDescriptor { close(descriptor) }
    }

    /// The bytes up to (not including) the next newline; `nil` if the input ends before any byte.
    /// A line longer than `maxLength` is an error, as is input that ends inside a line.
    func readLine(maxLength: Int, what: String) throws(VideoError) -> [UInt8]? {
        var line: [UInt8] = []
        while true {
            if start == end {
                try fill()
                if start == end {
                    if line.isEmpty { return nil }
                    throw .invalidHeader(source: name, reason: "\(what) ends without a newline")
                }
            }
            let available = buffer[start..<end]
            if let newline = available.firstIndex(of: 0x0A) {
                line += buffer[start..<newline]
                start = newline + 1
                guard line.count <= maxLength else { throw .invalidHeader(source: name, reason: "\(what) is longer than \(maxLength) bytes") }
                return line
            }
            line += available
            start = end
            guard line.count <= maxLength else { throw .invalidHeader(source: name, reason: "\(what) is longer than \(maxLength) bytes") }
        }
    }

    /// Fills `destination` completely unless the input ends first; returns the number of bytes read.
    func read(into destination: UnsafeMutableRawBufferPointer) throws(VideoError) -> Int {
        guard let base = destination.baseAddress, destination.count > 0 else { return 0 }
        let buffered = min(end - start, destination.count)
        if buffered > 0 {
            base.copyMemory(from: buffer.baseAddress! + start, byteCount: buffered)
            start += buffered
        }
        var filled = buffered
        while filled < destination.count && !reachedEnd {
            filled += try readSome(into: base + filled, count: destination.count - filled)
        }
        return filled
    }

    /// Refills the buffer when it is empty; leaves it empty at the end of the input.
    private func fill() throws(VideoError) {
        start = 0
        end = 0
        while !reachedEnd && end == 0 {
            end = try readSome(into: buffer.baseAddress!, count: buffer.count)
        }
    }

    /// Whether the next read needs no wait: the input is a regular file, bytes are read ahead, the
    /// input has ended, or `poll` says the descriptor has bytes or has hung up.
    var hasArrived: Bool {
        if isRegularFile || start < end || reachedEnd { return true }
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) != 0  // an error too: the read will report it at once
    }

    /// One `read(2)` of up to `count` bytes: the bytes it read, or 0 at the end of the input (now
    /// `reachedEnd`); an error or an interruption (`Interruption.signal`) throws.
    private func readSome(into destination: UnsafeMutableRawPointer, count: Int) throws(VideoError) -> Int {
        switch Interruption.read(descriptor, into: destination, count: count) {
        case let .bytes(count):
            return count
        case .end:
            reachedEnd = true
            return 0
        case let .interrupted(signal):
            throw .interrupted(source: name, signal: signal)
        case let .failed(code):
            throw .unreadable(source: name, reason: systemErrorDescription(code))
        }
    }
}
