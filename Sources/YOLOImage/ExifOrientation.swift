/// EXIF orientation (TIFF tag 0x0112) and the pixel transform OpenCV's `imread` applies for it.
///
/// The tag is found in a JPEG's first APP1 segment that starts with `Exif\0\0`, or in a PNG's
/// `eXIf` chunk; the TIFF structure is read here, in both byte orders, with every offset checked.
/// A malformed block is ignored (the image is used as stored), as OpenCV does.
package enum ExifOrientation: Int, Sendable, CaseIterable {
    case topLeft = 1       // as stored
    case topRight = 2      // mirrored horizontally
    case bottomRight = 3   // rotated 180°
    case bottomLeft = 4    // mirrored vertically
    case leftTop = 5       // transposed
    case rightTop = 6      // rotated 90° clockwise to display
    case rightBottom = 7   // transversed
    case leftBottom = 8    // rotated 90° counter-clockwise to display

    /// Whether applying the orientation swaps width and height.
    package var swapsDimensions: Bool { rawValue >= 5 }

    /// The orientation recorded in an encoded PNG or JPEG, or `nil` if there is none (or it is
    /// not one of 1…8).
    package static func find(in bytes: [UInt8], format: ImageFormat) -> ExifOrientation? {
        let tiff: ArraySlice<UInt8>?
        switch format {
        case .jpeg: tiff = jpegExifBlock(bytes)
        case .png: tiff = pngExifBlock(bytes)
        }
        guard let tiff, let raw = orientationTag(inTIFF: tiff) else { return nil }
        return ExifOrientation(rawValue: Int(raw))
    }

    /// The TIFF block of the first APP1 `Exif\0\0` segment, scanning markers up to SOS.
    static func jpegExifBlock(_ b: [UInt8]) -> ArraySlice<UInt8>? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var pos = 2
        while pos + 1 < b.count {
            guard b[pos] == 0xFF else { return nil }
            var marker = b[pos + 1]
            pos += 2
            while marker == 0xFF {  // fill bytes
                guard pos < b.count else { return nil }
                marker = b[pos]
                pos += 1
            }
            if marker == 0xDA || marker == 0xD9 { return nil }  // SOS / EOI: no more headers
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // no length field
            guard pos + 2 <= b.count else { return nil }
            let length = Int(b[pos]) << 8 | Int(b[pos + 1])
            guard length >= 2, pos + length <= b.count else { return nil }
            let payload = b[(pos + 2)..<(pos + length)]
            if marker == 0xE1, payload.starts(with: [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]) {
                return payload.dropFirst(6)
            }
            pos += length
        }
        return nil
    }

    /// The data of the first `eXIf` chunk, walking chunks up to IEND.
    static func pngExifBlock(_ b: [UInt8]) -> ArraySlice<UInt8>? {
        var pos = 8
        while pos + 8 <= b.count {
            let length = Int(b[pos]) << 24 | Int(b[pos + 1]) << 16 | Int(b[pos + 2]) << 8 | Int(b[pos + 3])
            let type = b[(pos + 4)..<(pos + 8)]
            let start = pos + 8
            guard length >= 0, length <= b.count - start else { return nil }
            if type.elementsEqual([0x65, 0x58, 0x49, 0x66]) { return b[start..<(start + length)] }  // eXIf
            if type.elementsEqual([0x49, 0x45, 0x4E, 0x44]) { return nil }  // IEND
            pos = start + length + 4  // data + CRC
        }
        return nil
    }

    /// The value of tag 0x0112 in IFD0 of a TIFF block, or `nil` if absent or malformed.
    package static func orientationTag(inTIFF t: ArraySlice<UInt8>) -> UInt16? {
        let base = t.startIndex
        let count = t.count
        guard count >= 8 else { return nil }
        let little: Bool
        switch (t[base], t[base + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ offset: Int) -> UInt16? {
            guard offset >= 0, offset + 2 <= count else { return nil }
            let a = UInt16(t[base + offset]), b = UInt16(t[base + offset + 1])
            return little ? (a | b << 8) : (a << 8 | b)
        }
        func u32(_ offset: Int) -> UInt32? {
            guard let lo = u16(offset), let hi = u16(offset + 2) else { return nil }
            return little ? (UInt32(lo) | UInt32(hi) << 16) : (UInt32(lo) << 16 | UInt32(hi))
        }
        guard u16(2) == 42, let ifd = u32(4).map(Int.init), let entries = u16(ifd) else { return nil }
        for k in 0..<Int(entries) {
            let entry = ifd + 2 + 12 * k
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 { return u16(entry + 8) }  // SHORT value, left-justified in the value field
        }
        return nil
    }

    /// The image as it should be displayed: OpenCV's `ApplyExifOrientation` (flip/transpose).
    package func apply(to image: RGBImage) -> RGBImage {
        if self == .topLeft { return image }
        let w = image.width, h = image.height
        let outW = swapsDimensions ? h : w
        let outH = swapsDimensions ? w : h
        var out = [UInt8](repeating: 0, count: w * h * 3)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<outH {
                    for x in 0..<outW {
                        let (sx, sy): (Int, Int)
                        switch self {
                        case .topLeft: (sx, sy) = (x, y)
                        case .topRight: (sx, sy) = (w - 1 - x, y)
                        case .bottomRight: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .bottomLeft: (sx, sy) = (x, h - 1 - y)
                        case .leftTop: (sx, sy) = (y, x)
                        case .rightTop: (sx, sy) = (y, h - 1 - x)
                        case .rightBottom: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .leftBottom: (sx, sy) = (w - 1 - y, x)
                        }
                        let s = (sy * w + sx) * 3, d = (y * outW + x) * 3
                        dst[d] = src[s]
                        dst[d + 1] = src[s + 1]
                        dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return RGBImage(width: outW, height: outH, pixels: out)
    }
}
