import CImageCodecs
import FoundationEssentials
import YOLOFileSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an image header says, read before any pixel is decoded.
package struct ImageInfo: Sendable, Equatable {
    package let format: ImageFormat
    /// Stored dimensions (before EXIF orientation).
    package let width: Int
    package let height: Int
    /// Bits per sample (PNG 1…16, JPEG 8).
    package let bitDepth: Int
    /// Samples per pixel in the file (1 gray, 2 gray+alpha, 3 RGB/YCbCr or palette index = 1, 4 RGBA/CMYK).
    package let components: Int
    /// PNG Adam7 interlacing or progressive JPEG.
    package let interlaced: Bool
    /// The EXIF orientation that decoding will apply, if any.
    package let orientation: ExifOrientation?
}

/// Decodes PNG and JPEG files to `RGBImage`, producing the same pixels as OpenCV's
/// `cv2.imread(path)` (IMREAD_COLOR), which is how Ultralytics reads images:
///
/// - 16-bit samples keep their high byte (`v >> 8`); gray is replicated to RGB; palettes expand;
///   alpha (and tRNS) is dropped, not composited; PNG gamma is not applied.
/// - JPEG decodes with libjpeg's defaults (ISLOW IDCT, fancy upsampling); CMYK and YCCK are turned
///   into RGB as OpenCV turns them (Adobe's inverted CMYK).
/// - EXIF orientation 2…8 (JPEG APP1 or PNG eXIf) is applied as OpenCV applies it.
///
/// The format is told by magic bytes. Dimensions and the pixel limit are checked from the header
/// before any pixel buffer is allocated; decoding then allocates the `width × height × 3` output
/// and nothing else in proportion to the image (libjpeg's own buffers aside). Every limit is a
/// property, and an image refused by one gets an error that states it. Safe to share between threads.
public struct ImageDecoder: Sendable {
    /// 50 megapixels.
    public static let defaultMaxPixels = 50_000_000
    /// JPEG's own largest side.
    public static let defaultMaxSide = 65_535

    /// Largest `width × height` accepted.
    public var maxPixels: Int
    /// Largest width or height accepted (a 1 × 50,000,000 strip is within `maxPixels`).
    public var maxSide: Int
    /// Largest file read from disk (the compressed size).
    public var maxFileBytes: Int
    /// Most scans of a progressive JPEG (each is a pass over the whole image; real files have ~10).
    public var maxProgressiveScans: Int
    /// Most bytes libpng may allocate or inflate for one ancillary chunk (text, ICC profile, ...);
    /// a larger one is skipped, as OpenCV ignores them too: the pixels do not depend on it.
    public var maxPNGChunkBytes: Int
    /// Whether EXIF orientation is applied (OpenCV's default; `IMREAD_IGNORE_ORIENTATION` turns it off).
    public var appliesExifOrientation: Bool

    public init(maxPixels: Int = ImageDecoder.defaultMaxPixels, maxSide: Int = ImageDecoder.defaultMaxSide,
                maxFileBytes: Int = 1 << 30, maxProgressiveScans: Int = 1000, maxPNGChunkBytes: Int = 8_000_000,
                appliesExifOrientation: Bool = true) {
        self.maxPixels = maxPixels
        self.maxSide = maxSide
        self.maxFileBytes = maxFileBytes
        self.maxProgressiveScans = maxProgressiveScans
        self.maxPNGChunkBytes = maxPNGChunkBytes
        self.appliesExifOrientation = appliesExifOrientation
    }

    /// Reads and decodes the image at `path`.
    public func decode(contentsOf path: String) throws(ImageError) -> RGBImage {
        try decode(try readFile(path), name: path)
    }

    /// Decodes an encoded PNG or JPEG held in memory; `name` is used in error messages.
    public func decode(_ bytes: [UInt8], name: String = "<memory>") throws(ImageError) -> RGBImage {
        let info = try self.info(bytes, name: name)
        let count = info.width * info.height * 3  // cannot overflow: checked against maxPixels
        var failure: (Int32, String)?
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var err = [CChar](repeating: 0, count: Int(SY_ERROR_CAPACITY))
            let status: Int32 = bytes.withUnsafeBufferPointer { src in
                err.withUnsafeMutableBufferPointer { e in
                    switch info.format {
                    case .png:
                        return sy_png_decode_rgb8(src.baseAddress, src.count, max(maxPNGChunkBytes, 1), Int32(info.width), Int32(info.height),
                                                  buffer.baseAddress, count, e.baseAddress)
                    case .jpeg:
                        return sy_jpeg_decode_rgb8(src.baseAddress, src.count, Int32(info.width), Int32(info.height),
                                                   Int32(clamping: maxProgressiveScans), buffer.baseAddress, count, e.baseAddress)
                    }
                }
            }
            if status != Int32(SY_OK) {
                buffer.initialize(repeating: 0)  // keep the array valid; it is discarded
                failure = (status, Self.message(err))
            }
            initialized = count
        }
        if let (status, message) = failure {
            throw Self.error(status: status, message: message, format: info.format, name: name)
        }
        let image = RGBImage(width: info.width, height: info.height, pixels: pixels)
        if let orientation = info.orientation { return orientation.apply(to: image) }
        return image
    }

    /// Decodes an encoded PNG or JPEG held in `data`; `name` is used in error messages.
    public func decode(data: Data, name: String = "<memory>") throws(ImageError) -> RGBImage {
        try decode([UInt8](data), name: name)
    }

    /// Reads only the header of the image at `path`, applying the same checks as `decode`.
    package func info(contentsOf path: String) throws(ImageError) -> ImageInfo {
        try info(try readFile(path), name: path)
    }

    /// Reads only the header of an encoded image, applying the same checks as `decode`.
    package func info(_ bytes: [UInt8], name: String = "<memory>") throws(ImageError) -> ImageInfo {
        if bytes.isEmpty { throw .corrupt(file: name, reason: "the file is empty") }
        guard let format = ImageFormat.detect(bytes) else {
            throw .unknownFormat(file: name, detected: ImageFormat.describeOther(bytes))
        }
        if format == .png, let (width, height) = Self.pngHeaderSize(bytes) {
            // Checked before libpng reads on, so a lying header costs nothing.
            try checkSize(width: width, height: height, name: name)
        }
        var raw = sy_image_info()
        var err = [CChar](repeating: 0, count: Int(SY_ERROR_CAPACITY))
        let status: Int32 = bytes.withUnsafeBufferPointer { src in
            err.withUnsafeMutableBufferPointer { e in
                switch format {
                case .png: return sy_png_read_info(src.baseAddress, src.count, max(maxPNGChunkBytes, 1), &raw, e.baseAddress)
                case .jpeg: return sy_jpeg_read_info(src.baseAddress, src.count, &raw, e.baseAddress)
                }
            }
        }
        if status != Int32(SY_OK) {
            throw Self.error(status: status, message: Self.message(err), format: format, name: name)
        }
        let width = Int(raw.width), height = Int(raw.height)
        try checkSize(width: width, height: height, name: name)
        if format == .jpeg && raw.bit_depth != 8 {
            throw .unsupported(file: name, reason: "\(raw.bit_depth)-bit JPEG (only 8-bit is supported)")
        }
        let orientation = appliesExifOrientation ? ExifOrientation.find(in: bytes, format: format) : nil
        return ImageInfo(format: format, width: width, height: height, bitDepth: Int(raw.bit_depth),
                         components: Int(raw.components), interlaced: raw.interlaced != 0,
                         orientation: orientation == .topLeft ? nil : orientation)
    }

    /// Refuses impossible sizes, more pixels than `maxPixels` and a side longer than `maxSide`.
    func checkSize(width: Int, height: Int, name: String) throws(ImageError) {
        guard width > 0, height > 0 else { throw .invalidDimensions(file: name, width: width, height: height) }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels {
            throw .tooLarge(file: name, width: width, height: height, limit: maxPixels)
        }
        if max(width, height) > maxSide {
            throw .sideTooLong(file: name, width: width, height: height, limit: maxSide)
        }
    }

    /// Width and height from a PNG's IHDR (which must be the first chunk) if it is intact (length
    /// 13, CRC good, sizes within PNG's 31 bits); otherwise `nil` and libpng reports the problem.
    static func pngHeaderSize(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 33, b[12...15].elementsEqual(Array("IHDR".utf8)) else { return nil }
        func u32(_ i: Int) -> UInt32 {
            UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in b[12..<29] {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        let width = u32(16), height = u32(20)
        guard u32(8) == 13, crc ^ 0xFFFF_FFFF == u32(29), width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            return nil
        }
        return (Int(width), Int(height))
    }

    /// The whole file, refusing anything but a regular file (before opening it) and files over
    /// `maxFileBytes`.
    func readFile(_ path: String) throws(ImageError) -> [UInt8] {
        do throws(FileSystemError) {
            return try RegularFile.read(path, maxBytes: maxFileBytes)
        } catch {
            guard case let .unreadable(_, reason) = error else { throw .unreadable(file: path, reason: "\(error)") }
            throw .unreadable(file: path, reason: reason)
        }
    }

    static func message(_ err: [CChar]) -> String {
        let bytes = err.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.isEmpty ? "unknown error" : text
    }

    static func error(status: Int32, message: String, format: ImageFormat, name: String) -> ImageError {
        let reason = "\(format.rawValue): \(message)"
        switch status {
        case Int32(SY_ERR_TRUNCATED): return .truncated(file: name, reason: reason)
        case Int32(SY_ERR_UNSUPPORTED): return .unsupported(file: name, reason: reason)
        default:
            // libpng/libjpeg report reading past the end in their own words.
            let lower = message.lowercased()
            if lower.contains("premature end") || lower.contains("read error") || lower.contains("not enough") {
                return .truncated(file: name, reason: reason)
            }
            return .corrupt(file: name, reason: reason)
        }
    }
}
