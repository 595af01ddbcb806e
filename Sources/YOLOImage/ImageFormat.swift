/// The container format of an image, told by its magic bytes (never by the file extension).
package enum ImageFormat: String, Sendable, CaseIterable {
    case png = "PNG"
    case jpeg = "JPEG"

    /// Whether a directory entry named `name` is one of its images or frames: it ends in `.png`,
    /// `.jpg` or `.jpeg` (any case) and is not hidden. Ultralytics' glob passes over names that start
    /// with a dot too, among them the `._photo.jpg` resource forks a folder copied from a Mac holds,
    /// which are not pictures.
    package static func isImageFileName(_ name: String) -> Bool {
        guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { return false }
        return ["png", "jpg", "jpeg"].contains(name[name.index(after: dot)...].lowercased())
    }

    /// The format of `bytes`, or `nil` if they are neither PNG nor JPEG.
    package static func detect<C: Collection>(_ bytes: C) -> ImageFormat? where C.Element == UInt8 {
        let head = Array(bytes.prefix(8))
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        if head.count >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF { return .jpeg }
        return nil
    }

    /// A name for formats we recognise but do not decode, so errors can say what the file is.
    static func describeOther<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
        let head = Array(bytes.prefix(16))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
        }
        let ascii = { (s: String) in Array(s.utf8) }
        if starts(ascii("GIF87a")) || starts(ascii("GIF89a")) { return "GIF" }
        if starts(ascii("BM")) { return "BMP" }
        if starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8) { return "WebP" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if starts(ascii("ftyp"), at: 4) { return "HEIF/AVIF/MP4" }
        if starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50]) || starts([0xFF, 0x4F, 0xFF, 0x51]) { return "JPEG 2000" }
        if starts(ascii("qoif")) { return "QOI" }
        if starts([0xFF, 0xD8]) { return "damaged JPEG" }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "damaged PNG" }
        return nil
    }
}
