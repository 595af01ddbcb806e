#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import YOLOFileSystem

/// Every byte `swift-yolo` prints goes through here: whole lines, written at once with `write(2)`
/// and checked, so that a full disk, a file-size limit or a closed pipe is an error and never a
/// silent exit 0, and a results file interrupted in any way holds only whole lines.
enum StandardStreams {
    /// Writing standard output failed; `errno` says why.
    struct OutputFailure: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "cannot write to standard output: \(systemErrorDescription(code))" }
    }

    /// Writes `line` and a newline to standard output. Unbuffered, so each line reaches a pipe or
    /// file as soon as it is done. If the write fails part-way on a regular file (no space, file-size
    /// limit), the part written is cut off again, so the file ends with the last whole line.
    ///
    /// The part is found from where the write left the file's offset, not from where it was before:
    /// opened to append (`>>`), the offset is 0 until the first write, which goes to the end, and
    /// cutting back to 0 emptied the whole file.
    static func line(_ line: String) throws(OutputFailure) {
        let (failure, written) = writeAll(STDOUT_FILENO, Array(line.utf8) + [0x0A])
        guard let failure else { return }
        if written > 0 {
            let end = lseek(STDOUT_FILENO, 0, SEEK_CUR)  // -1 on a pipe or terminal
            if end >= written { _ = ftruncate(STDOUT_FILENO, end - written) }
        }
        throw OutputFailure(code: failure)
    }

    /// Writes a message to standard error, each of its lines with control characters escaped (a
    /// hostile file name cannot drive the terminal). Best effort: there is nowhere left to report
    /// its failure.
    static func message(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { DisplayText.terminal(String($0)) }
        writeAll(STDERR_FILENO, Array(lines.joined(separator: "\n").utf8) + [0x0A])
    }

    /// A progress line on standard error, redrawn in place on a terminal.
    static func progress(_ text: String) {
        writeAll(STDERR_FILENO, Array(("\r" + DisplayText.terminal(text) + "\u{1B}[K").utf8))
    }

    /// Clears the progress line.
    static func clearProgress() { writeAll(STDERR_FILENO, Array("\r\u{1B}[K".utf8)) }

    /// Writes all of `bytes`, resuming after signals: the `errno` of a failure (`nil` for none), and
    /// the bytes written before it.
    @discardableResult
    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> (failure: Int32?, written: Int) {
        bytes.withUnsafeBytes { buffer -> (Int32?, Int) in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return (errno, offset)
                }
                offset += written
            }
            return (nil, offset)
        }
    }
}
