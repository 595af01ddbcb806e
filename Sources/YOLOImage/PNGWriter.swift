import CImageCodecs
import YOLOFileSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RGBImage {
    /// Writes the image as an 8-bit RGB PNG named `path` and returns the path written: `path`
    /// itself, or `stem_2.png`, `stem_3.png`, … when that name is taken, for an existing file is
    /// never replaced (it may be an input). The file appears whole or not at all (`NewFile`): a
    /// failure (full disk, file-size limit) leaves neither it nor a temporary.
    @discardableResult
    package func writePNG(to path: String) throws(ImageError) -> String {
        do {
            return try NewFile.write(path) { descriptor in
                var err = [CChar](repeating: 0, count: Int(SY_ERROR_CAPACITY))
                let status = pixels.withUnsafeBufferPointer { p in
                    err.withUnsafeMutableBufferPointer { e in
                        sy_png_write_rgb8(descriptor, p.baseAddress, Int32(width), Int32(height), e.baseAddress)
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
