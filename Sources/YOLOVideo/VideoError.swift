import FoundationEssentials
import Glibc

import YOLOImage

/// Why a video source could not be opened or read. Every case names the source (a path, or
/// `stdin`) and, past the header, the frame number, and says what is wrong in `description`.
public enum VideoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file or directory could not be opened or read.
    case unreadable(source: String, reason: String)
    /// The stream header is not a valid YUV4MPEG2 header.
    case invalidHeader(source: String, reason: String)
    /// A valid stream of a kind this reader does not handle (a colour space other than 4:2:0/4:4:4, …).
    case unsupported(source: String, reason: String)
    /// The header announces more pixels per frame than the limit; nothing was allocated.
    case tooLarge(source: String, width: Int, height: Int, limit: Int)
    /// A frame header is malformed (the stream is out of step and cannot go on).
    case invalidFrame(source: String, frame: Int, reason: String)
    /// The stream ends inside a frame.
    case truncatedFrame(source: String, frame: Int, expected: Int, got: Int)
    /// A directory holds no image frames.
    case noFrames(source: String)
    /// One image of a directory source failed to decode; the frames after it can still be read.
    case badImage(source: String, frame: Int, error: ImageError)
    /// Reading was interrupted by SIGINT or SIGTERM (`Interruption`).
    case interrupted(source: String, signal: Int32)

    /// The source (path or `stdin`) the error is about.
    public var source: String {
        switch self {
        case .unreadable(let source, _), .invalidHeader(let source, _), .unsupported(let source, _),
            .tooLarge(let source, _, _, _), .invalidFrame(let source, _, _), .truncatedFrame(let source, _, _, _),
            .noFrames(let source), .badImage(let source, _, _), .interrupted(let source, _):
            return source
        }
    }

    /// Whether reading can go on with the next frame (only a bad image in a directory allows it).
    public var isRecoverable: Bool {
        if case .badImage = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .unreadable(let source, let reason):
            return "cannot read '\(source)': \(reason)"
        case .invalidHeader(let source, let reason):
            return "'\(source)' is not a YUV4MPEG2 stream: \(reason)"
        case .unsupported(let source, let reason):
            return "'\(source)' is not supported: \(reason)"
        case .tooLarge(let source, let width, let height, let limit):
            return "'\(source)' is too large: \(width)x\(height) pixels per frame exceeds the limit of \(limit) pixels"
        case .invalidFrame(let source, let frame, let reason):
            return "'\(source)' frame \(frame): \(reason)"
        case .truncatedFrame(let source, let frame, let expected, let got):
            return "'\(source)' frame \(frame) is truncated: \(got) of \(expected) bytes"
        case .noFrames(let source):
            return "'\(source)' holds no .png/.jpg/.jpeg frames"
        case .badImage(let source, let frame, let error):
            return "'\(source)' frame \(frame): \(error)"
        case .interrupted(let source, let signal):
            return "reading '\(source)' was interrupted by signal \(signal)"
        }
    }
}

extension VideoError: LocalizedError {
    /// The same one-line message as `description`: the file or input, and what is wrong with it.
    public var errorDescription: String? { description }
}
