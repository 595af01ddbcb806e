import CImageCodecs
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RGBImage {
    /// Writes the image as an 8-bit RGB PNG at `path`, atomically: the data goes to a temporary
    /// file in the same directory, which is then renamed over `path`, so readers never see a
    /// partial file and a failure leaves any previous file untouched.
    public func writePNG(to path: String) throws(ImageError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        if base.isEmpty { throw .writeFailed(file: path, reason: "the path names a directory") }
        let temporary = "\(directory).\(base).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        var err = [CChar](repeating: 0, count: Int(SY_ERROR_CAPACITY))
        let status = pixels.withUnsafeBufferPointer { p in
            err.withUnsafeMutableBufferPointer { e in
                sy_png_write_rgb8(temporary, p.baseAddress, Int32(width), Int32(height), e.baseAddress)
            }
        }
        if status != Int32(SY_OK) {
            unlink(temporary)
            throw .writeFailed(file: path, reason: ImageDecoder.message(err))
        }
        if rename(temporary, path) != 0 {
            let reason = ImageDecoder.errnoText()
            unlink(temporary)
            throw .writeFailed(file: path, reason: reason)
        }
    }
}
