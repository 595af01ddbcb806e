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
        do {
            return try NewFile.write(path) { descriptor in
                var err = [CChar](repeating: 0, count: Int(SY_ERROR_CAPACITY))
                let status = pixels.withUnsafeBufferPointer { p in
                    err.withUnsafeMutableBufferPointer { e in
                        sy_png_write(descriptor, p.baseAddress, Int32(width), Int32(height), Int32(channels), e.baseAddress)
                    }
                }
                if status != Int32(SY_OK) { throw ImageError.writeFailed(file: path, reason: ImageDecoder.message(err)) }
            }
        } catch let error as ImageError {
            throw error
        } catch let error as FileSystemError {
            guard case let .unwritable(file, reason) = error else { throw .writeFailed(file: path, reason: "\(error)") }
            throw .writeFailed(file: file, reason: reason)
        } catch {
            throw .writeFailed(file: path, reason: "\(error)")
        }
    }
}
