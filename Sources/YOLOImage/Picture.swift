import CImageCodecs
import YOLOFileSystem

/// An 8-bit picture of 1 (gray), 3 (RGB) or 4 (RGBA) interleaved channels, written as a PNG: the
/// instance-index masks of `--masks` and the transparent cut-outs of `background`.
package struct Picture: Sendable, Equatable {
    package let width: Int
    package let height: Int
    package let channels: Int
    package var pixels: [UInt8]

    package init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && [1, 3, 4].contains(channels) && pixels.count == width * height * channels,
                     "\(pixels.count) bytes for a \(width)×\(height) picture of \(channels) channels")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// Writes the PNG named `path`, never replacing a file (`stem_2.png`, … as `RGBImage.write`), and
    /// returns the path written.
    @discardableResult
    package func writePNG(to path: String) throws(ImageError) -> String {
        try writeNewPicture(path) { descriptor, err in
            pixels.withUnsafeBufferPointer { p in
                sy_png_write(descriptor, p.baseAddress, Int32(width), Int32(height), Int32(channels), err)
            }
        }
    }
}
