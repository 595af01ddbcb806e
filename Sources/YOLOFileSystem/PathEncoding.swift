/// File names on Linux are bytes; Swift strings are Unicode. `PathEncoding` carries any name in a
/// `String` without loss, so a photo whose name is not valid UTF-8 (a Latin-1 name from an old
/// camera card) opens, is reported and is saved under its own bytes.
///
/// Bytes that are not part of a valid UTF-8 sequence each become one character of the last 256
/// code points of plane 16 (U+10FF00 + byte), which no text uses. A name that really contains one
/// of those code points has its bytes escaped the same way, so the mapping is a bijection:
/// `bytes(of: string(fromFileSystem: b)) == b` for every byte string `b`.
package enum PathEncoding {
    static let escapeBase: UInt32 = 0x10FF00

    /// The name as a `String`, escaping what is not UTF-8.
    package static func string(fromFileSystem bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            if let (scalar, length) = decodeScalar(bytes, at: i), scalar.value < escapeBase {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(escape(bytes[i]))
                i += 1
            }
        }
        return String(scalars)
    }

    /// The bytes a `String` from `string(fromFileSystem:)` stands for; other strings give their UTF-8.
    package static func bytes(of path: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if let byte = escapedByte(scalar) {
                bytes.append(byte)
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Calls `body` with the path as the NUL-terminated bytes the system takes.
    package static func withCString<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        var bytes = Self.bytes(of: path).map { CChar(bitPattern: $0) }
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The byte an escape character stands for, or `nil` for any other character.
    package static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= escapeBase ? UInt8(scalar.value - escapeBase) : nil
    }

    static func escape(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(escapeBase + UInt32(byte))!  // plane 16 is always valid
    }

    /// The well-formed UTF-8 scalar starting at `i` (no overlong forms, no surrogates) and its length.
    static func decodeScalar(_ b: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let first = b[i]
        if first < 0x80 { return (Unicode.Scalar(first), 1) }
        let length: Int, minimum: UInt32
        var value: UInt32
        switch first {
        case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(first & 0x1F))
        case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(first & 0x0F))
        case 0xF0...0xF4: (length, minimum, value) = (4, 0x10000, UInt32(first & 0x07))
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        for k in 1..<length {
            let continuation = b[i + k]
            guard continuation & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(continuation & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
