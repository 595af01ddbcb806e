/// An 8-bit RGB image: interleaved, row-major, `width × height × 3` bytes, no row padding.
///
/// This is what `cv2.imread(path)[..., ::-1]` holds (OpenCV's BGR reordered to RGB).
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `pixels[(y * width + x) * 3 + c]`, c = 0 red, 1 green, 2 blue.
    public package(set) var pixels: [UInt8]

    /// Wraps existing pixels.
    /// - Precondition: `width, height > 0` and `pixels.count == width * height * 3`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0, "RGBImage needs positive dimensions, got \(width)x\(height)")
        precondition(pixels.count == width * height * 3,
                     "RGBImage \(width)x\(height) needs \(width * height * 3) bytes, got \(pixels.count)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image filled with one colour.
    /// - Precondition: `width, height > 0`.
    public init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8) = (0, 0, 0)) {
        precondition(width > 0 && height > 0, "RGBImage needs positive dimensions, got \(width)x\(height)")
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) {
            pixels[i] = fill.0
            pixels[i + 1] = fill.1
            pixels[i + 2] = fill.2
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at column `x`, row `y`.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}
