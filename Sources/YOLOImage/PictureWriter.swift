import CImageCodecs
import YOLOFileSystem

/// The file format of a picture SwiftYOLO writes (`--save`).
package enum PictureFormat: String, Sendable, CaseIterable {
    /// Lossless 8-bit RGB PNG, compressed fast.
    case png
    /// Baseline JPEG at quality 90: smaller and faster to write.
    case jpg

    /// The file name extension, with its dot.
    package var fileExtension: String { "." + rawValue }
}

extension RGBImage {
    /// Writes the image as `format` named `path` and returns the path written: `path` itself, or
    /// `stem_2.ext`, `stem_3.ext`, … when that name is taken, for an existing file is never
    /// replaced (it may be an input). The file appears whole or not at all (`NewFile`): a failure
    /// (full disk, file-size limit) leaves neither it nor a temporary.
    @discardableResult
    package func write(to path: String, format: PictureFormat) throws(ImageError) -> String {
        try writeNewPicture(path) { descriptor, err in
            pixels.withUnsafeBufferPointer { p in
                switch format {
                case .png: sy_png_write_rgb8(descriptor, p.baseAddress, Int32(width), Int32(height), err)
                case .jpg: sy_jpeg_write_rgb8(descriptor, p.baseAddress, Int32(width), Int32(height), 90, err)
                }
            }
        }
    }

    /// Writes the image as a PNG (see `write(to:format:)`).
    @discardableResult
    package func writePNG(to path: String) throws(ImageError) -> String {
        try write(to: path, format: .png)
    }
}

/// Writes a new picture file named `path` through `encode` (a C encoder writing to the open file
/// descriptor, with an error buffer of `SY_ERROR_CAPACITY`), never replacing a file (`NewFile`:
/// `stem_2.ext`, … when the name is taken), and returns the path written. Every failure is an
/// `ImageError.writeFailed` that names the file.
func writeNewPicture(_ path: String, encode: (Int32, UnsafeMutablePointer<CChar>) -> Int32) throws(ImageError) -> String {
    do {
        return try NewFile.write(path) { descriptor in
            var err = [CChar](repeating: 0, count: Int(SY_ERROR_CAPACITY))
            let status = err.withUnsafeMutableBufferPointer { e -> Int32 in
                guard let buffer = e.baseAddress else { return Int32(SY_ERR_ARGUMENT) }
                return encode(descriptor, buffer)
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
