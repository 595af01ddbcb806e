import FoundationEssentials
import Glibc
import YOLOModel

/// Why `Detector` refused a model file, options or an input that the lower layers never saw.
public enum DetectorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model file at `path` cannot serve: `reason` says what is wrong (unreadable, not a
    /// SwiftYOLO weights file, damaged, a model this engine cannot build: naming the file; or a
    /// kernel set forced by `SWIFTYOLO_KERNELS` that this CPU lacks: naming the variable).
    case unusableModel(path: String, reason: String)
    /// Pixels given as an array (`detect(pixels:width:height:)`) that do not describe an image of
    /// the size given. (A `PixelBuffer` that does not is refused when it is made: `ImageError`.)
    case invalidPixels(reason: String)
    /// Options, labels or a URL that this detector or model cannot take.
    case invalidOptions(reason: String)
    /// The input's memory plan needs more than `DetectionOptions.memoryLimit`.
    case overMemoryLimit(inputWidth: Int, inputHeight: Int, plannedBytes: Int, limitBytes: Int)
    /// The input's memory plan needs more address space than this process could reserve for its
    /// tensors under its limit `limitBytes` (`ulimit -v`; `nil` for none): refused before the pass,
    /// where an allocation would otherwise fail part-way through it and end the process.
    case overAddressSpace(inputWidth: Int, inputHeight: Int, plannedBytes: Int, limitBytes: Int?)

    public var description: String {
        switch self {
        case let .unusableModel(_, reason): reason
        case let .invalidPixels(reason): "invalid pixels: \(reason)"
        case let .invalidOptions(reason): "invalid options: \(reason)"
        case let .overMemoryLimit(width, height, planned, limit):
            "a \(width)×\(height) input needs " + ActivationMemoryShortfall(plannedBytes: planned, bound: .limit(limitBytes: limit)).explanation()
        case let .overAddressSpace(width, height, planned, limit):
            "a \(width)×\(height) input needs " + ActivationMemoryShortfall(plannedBytes: planned, bound: .addressSpace(limitBytes: limit)).explanation()
        }
    }
}

extension DetectorError {
    /// The refusal of an input whose activations do not fit: over the caller's limit, or more than
    /// the address space allows.
    init(_ shortfall: ActivationMemoryShortfall, inputWidth: Int, inputHeight: Int) {
        switch shortfall.bound {
        case let .limit(limit):
            self = .overMemoryLimit(inputWidth: inputWidth, inputHeight: inputHeight, plannedBytes: shortfall.plannedBytes, limitBytes: limit)
        case let .addressSpace(limit):
            self = .overAddressSpace(inputWidth: inputWidth, inputHeight: inputHeight, plannedBytes: shortfall.plannedBytes, limitBytes: limit)
        }
    }
}

extension DetectorError: LocalizedError {
    /// The same one-line message as `description`: the file or input, and what is wrong with it.
    public var errorDescription: String? { description }
}
