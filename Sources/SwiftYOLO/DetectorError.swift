import Foundation

/// Why `Detector` refused an input that the lower layers never saw.
public enum DetectorError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidPixels(reason: String)
    case invalidOptions(reason: String)
    /// The input's memory plan needs more than `DetectionOptions.memoryLimit`.
    case overMemoryLimit(inputWidth: Int, inputHeight: Int, plannedBytes: Int, limitBytes: Int)

    public var description: String {
        switch self {
        case let .invalidPixels(reason): "invalid pixels: \(reason)"
        case let .invalidOptions(reason): "invalid options: \(reason)"
        case let .overMemoryLimit(width, height, planned, limit):
            "a \(width)×\(height) input needs about \(planned >> 20) MB for activations, over the memory limit of \(limit >> 20) MB"
        }
    }
}

extension DetectorError: LocalizedError {
    /// The same one-line message as `description`: the file or input, and what is wrong with it.
    public var errorDescription: String? { description }
}
