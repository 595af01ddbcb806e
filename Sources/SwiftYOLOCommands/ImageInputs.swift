#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import YOLOFileSystem
import YOLOImage

/// The images `detect` runs on, in order, produced as they are reached: each argument a file, a
/// directory (its `.png`/`.jpg`/`.jpeg` regular files in name order; an entry named like an image
/// that cannot be examined, such as a symbolic link to nothing, is an input that fails with the
/// reason, and a directory or other file named like one is passed over with a warning; a directory
/// with no image is an input that fails, as Ultralytics' `predict` refuses one), or `-`,
/// standard input read one path per line as the lines arrive, so that a list of any length runs in
/// bounded memory and a pipe sees each result as soon as it is done. Paths keep their bytes
/// (`PathEncoding`). A directory that cannot be listed is an input that fails, with the reason, as
/// an image that cannot be read does.
struct ImageInputs: Sequence {
    /// One input: its path, and why it cannot be read where that is known before reading it.
    struct Input {
        let path: String
        let failure: FileSystemError?

        /// Throws the reason the input cannot be read, if it is known already.
        func checkListed() throws(FileSystemError) {
            if let failure { throw failure }
        }
    }

    let arguments: [String]

    /// How many images there are, when no argument is `-` (directories are listed to count them).
    var knownCount: Int? {
        guard !arguments.contains("-") else { return nil }
        return arguments.reduce(0) { $0 + (Directory.exists($1) ? (try? ImageInputs.inputs(in: $1, warn: false).count) ?? 1 : 1) }
    }

    func makeIterator() -> Iterator { Iterator(arguments: arguments[...]) }

    /// The interrupting signal if a run that has done `done` images ended because of it: standard
    /// input ends when a signal comes (`total` is `nil` then), and a known count says whether every
    /// image was reached.
    static func interruption(done: Int, of total: Int?) -> Int32? {
        guard let signal = Interruption.signal, total.map({ done < $0 }) ?? true else { return nil }
        return signal
    }

    struct Iterator: IteratorProtocol {
        var arguments: ArraySlice<String>
        var pending: ArraySlice<Input> = []
        var standardInput: StandardInputLines?

        mutating func next() -> Input? {
            while true {
                if let path = pending.popFirst() { return path }
                if let reader = standardInput {
                    if let line = reader.next() {
                        if !line.isEmpty { pending = ImageInputs.expand(line) }
                        continue
                    }
                    standardInput = nil
                    // A list cut short by a read error is an input that failed, with the reason.
                    if let failure = reader.failure { return Input(path: "-", failure: failure) }
                }
                guard let argument = arguments.popFirst() else { return nil }
                if argument == "-" {
                    standardInput = StandardInputLines()
                } else {
                    pending = ImageInputs.expand(argument)
                }
            }
        }
    }

    /// A directory's images, or the path itself (a missing file is reported with the failures), or
    /// a directory that cannot be listed, failing.
    static func expand(_ path: String) -> ArraySlice<Input> {
        guard Directory.exists(path) else { return [Input(path: path, failure: nil)] }
        do {
            return try inputs(in: path, warn: true)[...]
        } catch {
            return [Input(path: path, failure: error)]
        }
    }

    /// A directory's entries named like images, in name order: its regular files, and those that
    /// cannot be examined, failing with the reason. Directories and other files are passed over,
    /// with a warning if `warn`. With none, the directory itself, failing: a script handed an empty
    /// or wrong folder learns it from the exit status.
    static func inputs(in directory: String, warn: Bool) throws(FileSystemError) -> [Input] {
        let entries = try Directory.entries(of: directory).filter { ImageFormat.isImageFileName($0.name) }
        let found = entries.compactMap { entry -> Input? in
            let path = Directory.appending(entry.name, to: directory)
            if let reason = entry.examinationFailure { return Input(path: path, failure: .unreadable(path: path, reason: reason)) }
            guard entry.isRegularFile else {
                if warn { StandardStreams.message("warning: skipping '\(path)': \(entry.otherKind ?? "")") }
                return nil
            }
            // A file this run saved there (`--save` into a directory also given as an input, reached
            // after the images before it were saved) is an output, not an input.
            return OutputFiles.wasCreated(path) ? nil : Input(path: path, failure: nil)
        }
        guard !found.isEmpty else {
            return [Input(path: directory, failure: .unreadable(path: directory, reason: "it holds no .png, .jpg or .jpeg file"))]
        }
        return found
    }
}

/// Lines of standard input, one at a time, byte for byte (a trailing `\r` dropped); ends at the end
/// of the input, when SIGINT or SIGTERM interrupts a read, or on a read error (`failure`).
final class StandardInputLines {
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false
    /// Why reading ended early, if a read failed.
    private(set) var failure: FileSystemError?
    /// What one `read` fills, reused from read to read.
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)

    deinit { chunk.deallocate() }

    func next() -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                var line = buffer[start..<newline]
                start = newline + 1
                if line.last == 0x0D { line = line.dropLast() }
                return PathEncoding.string(fromFileSystem: line)
            }
            if ended {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return PathEncoding.string(fromFileSystem: buffer[start...])
            }
            buffer.removeSubrange(..<start)
            start = 0
            switch Interruption.read(STDIN_FILENO, into: chunk.baseAddress!, count: chunk.count) {
            case let .bytes(count): buffer += chunk[..<count]
            case .end, .interrupted: ended = true
            case let .failed(code):
                failure = .unreadable(path: "-", reason: systemErrorDescription(code))
                ended = true
            }
        }
    }
}
