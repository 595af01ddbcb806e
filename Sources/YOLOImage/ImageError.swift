import FoundationEssentials
import Glibc

/// Why an image could not be read, decoded or written. Every case names the file (or, for
/// in-memory data, the name the caller gave it) and says what is wrong in its `description`.
public enum ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read (missing, a directory, permissions, too big to load).
    case unreadable(file: String, reason: String)
    /// The bytes are neither PNG nor JPEG; `detected` names the format the magic bytes suggest, if any.
    case unknownFormat(file: String, detected: String?)
    /// A valid image of a kind this decoder does not handle (12-bit JPEG, …).
    case unsupported(file: String, reason: String)
    /// The codec rejected the data.
    case corrupt(file: String, reason: String)
    /// The data ends before the image does.
    case truncated(file: String, reason: String)
    /// The header announces more pixels than the decoder's limit; nothing was allocated.
    case tooLarge(file: String, width: Int, height: Int, limit: Int)
    /// The header announces a width or height over the decoder's `maxSide`; nothing was allocated.
    case sideTooLong(file: String, width: Int, height: Int, limit: Int)
    /// The header announces an impossible size (zero, negative).
    case invalidDimensions(file: String, width: Int, height: Int)
    /// An output file could not be written.
    case writeFailed(file: String, reason: String)
    /// A `PixelBuffer`'s planes do not hold the rows its size and format need.
    case invalidPixelBuffer(reason: String)

    /// The file (or in-memory name) the error is about.
    public var file: String {
        switch self {
        case .unreadable(let file, _), .unknownFormat(let file, _), .unsupported(let file, _),
            .corrupt(let file, _), .truncated(let file, _), .tooLarge(let file, _, _, _), .sideTooLong(let file, _, _, _),
            .invalidDimensions(let file, _, _), .writeFailed(let file, _):
            return file
        case .invalidPixelBuffer:
            return "<pixel buffer>"
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            return "cannot read '\(file)': \(reason)"
        case .unknownFormat(let file, let detected):
            if let detected { return "'\(file)' is a \(detected) file; only PNG and JPEG are supported" }
            return "'\(file)' is not a PNG or JPEG file (unrecognised signature)"
        case .unsupported(let file, let reason):
            return "'\(file)' is not supported: \(reason)"
        case .corrupt(let file, let reason):
            return "'\(file)' is corrupt: \(reason)"
        case .truncated(let file, let reason):
            return "'\(file)' is truncated: \(reason)"
        case .tooLarge(let file, let width, let height, let limit):
            return "'\(file)' is too large: \(width)x\(height) pixels exceeds the limit of \(limit) pixels"
        case .sideTooLong(let file, let width, let height, let limit):
            return "'\(file)' is too large: \(width)x\(height) pixels has a side longer than the limit of \(limit) pixels"
        case .invalidDimensions(let file, let width, let height):
            return "'\(file)' has invalid dimensions \(width)x\(height)"
        case .writeFailed(let file, let reason):
            return "cannot write '\(file)': \(reason)"
        case .invalidPixelBuffer(let reason):
            return "invalid pixel buffer: \(reason)"
        }
    }
}

extension ImageError: LocalizedError {
    /// The same one-line message as `description`: the file or input, and what is wrong with it.
    public var errorDescription: String? { description }
}
