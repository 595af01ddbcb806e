import Foundation

/// Why `Detector` refused a model file, options or an input that the lower layers never saw.
public enum DetectorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model file at `path` cannot serve: `reason` names the file and what is wrong (unreadable,
    /// not a SwiftYOLO weights file, damaged, a model this engine cannot build, or a kernel set forced
    /// by `SWIFTYOLO_KERNELS` that this CPU lacks).
    case unusableModel(path: String, reason: String)
    /// Pixels given as an array or buffer that do not describe an image of the size given.
    case invalidPixels(reason: String)
    /// Options, labels or a URL that this detector or model cannot take.
    case invalidOptions(reason: String)
    /// The input's memory plan needs more than `DetectionOptions.memoryLimit`.
    case overMemoryLimit(inputWidth: Int, inputHeight: Int, plannedBytes: Int, limitBytes: Int)

    public var description: String {
        switch self {
        case let .unusableModel(_, reason): reason
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
