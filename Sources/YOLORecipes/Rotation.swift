import YOLODetect
import YOLOImage

/// A turn of the image, clockwise, applied before detection (`--rotations 0,90,180,270`): objects
/// lying sideways are found by the pass that stands them upright. Boxes found on the turned image
/// are mapped back with `mapToOriginal`.
public enum Rotation: Int, Sendable, CaseIterable, Comparable, Codable {
    case degrees0 = 0
    case degrees90 = 90
    case degrees180 = 180
    case degrees270 = 270

    /// The rotation by `degrees` (0, 90, 180 or 270).
    public init?(degrees: Int) { self.init(rawValue: degrees) }

    /// The turn in degrees, clockwise: 0, 90, 180 or 270.
    public var degrees: Int { rawValue }

    public static func < (a: Rotation, b: Rotation) -> Bool { a.rawValue < b.rawValue }

    /// Size of a `width × height` image after the turn.
    public func rotatedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        self == .degrees90 || self == .degrees270 ? (height, width) : (width, height)
    }

    /// `image` turned clockwise by this rotation.
    public func rotate(_ image: RGBImage) -> RGBImage {
        if self == .degrees0 { return image }
        let w = image.width, h = image.height
        let (rw, rh) = rotatedSize(width: w, height: h)
        let source = image.pixels
        let pixels = [UInt8](unsafeUninitializedCapacity: w * h * 3) { out, initialized in
            for y in 0..<rh {
                for x in 0..<rw {
                    // The source pixel that lands on (x, y).
                    let (sx, sy): (Int, Int)
                    switch self {
                    case .degrees0: (sx, sy) = (x, y)
                    case .degrees90: (sx, sy) = (y, h - 1 - x)
                    case .degrees180: (sx, sy) = (w - 1 - x, h - 1 - y)
                    case .degrees270: (sx, sy) = (w - 1 - y, x)
                    }
                    let o = (y * rw + x) * 3, i = (sy * w + sx) * 3
                    out[o] = source[i]
                    out[o + 1] = source[i + 1]
                    out[o + 2] = source[i + 2]
                }
            }
            initialized = w * h * 3
        }
        return RGBImage(width: rw, height: rh, pixels: pixels)
    }

    /// A box found on the turned image, in the coordinates of the original `width × height` image.
    /// Exact: corners map to corners (a point (x, y) turned 90° lands on (height − y, x)).
    public func mapToOriginal(_ box: BoundingBox, originalWidth width: Int, originalHeight height: Int) -> BoundingBox {
        let w = Float(width), h = Float(height)
        switch self {
        case .degrees0: return box
        case .degrees90: return BoundingBox(x1: box.y1, y1: h - box.x2, x2: box.y2, y2: h - box.x1)
        case .degrees180: return BoundingBox(x1: w - box.x2, y1: h - box.y2, x2: w - box.x1, y2: h - box.y1)
        case .degrees270: return BoundingBox(x1: w - box.y2, y1: box.x1, x2: w - box.y1, y2: box.x2)
        }
    }

    /// A box of the original `width × height` image, in the coordinates of the turned image (the
    /// inverse of `mapToOriginal`).
    public func mapToRotated(_ box: BoundingBox, originalWidth width: Int, originalHeight height: Int) -> BoundingBox {
        let w = Float(width), h = Float(height)
        switch self {
        case .degrees0: return box
        case .degrees90: return BoundingBox(x1: h - box.y2, y1: box.x1, x2: h - box.y1, y2: box.x2)
        case .degrees180: return BoundingBox(x1: w - box.x2, y1: h - box.y2, x2: w - box.x1, y2: h - box.y1)
        case .degrees270: return BoundingBox(x1: box.y1, y1: w - box.x2, x2: box.y2, y2: w - box.x1)
        }
    }

    /// Parses a comma-separated list of degrees (`0,90`), in the order given, without repeats.
    package static func parseList(_ text: String) -> [Rotation]? {
        var rotations: [Rotation] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let degrees = Int(String(item.filter { $0 != " " })), let rotation = Rotation(degrees: degrees) else { return nil }
            if !rotations.contains(rotation) { rotations.append(rotation) }
        }
        return rotations.isEmpty ? nil : rotations
    }
}
