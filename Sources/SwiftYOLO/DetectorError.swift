/// Why `Detector` refused an input that the lower layers never saw.
public enum DetectorError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidPixels(reason: String)
    case invalidOptions(reason: String)

    public var description: String {
        switch self {
        case let .invalidPixels(reason): "invalid pixels: \(reason)"
        case let .invalidOptions(reason): "invalid options: \(reason)"
        }
    }
}
