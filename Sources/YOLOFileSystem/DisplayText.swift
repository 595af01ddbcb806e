/// Text that carries file names and messages safely to where it is shown: a terminal, which must
/// never receive control bytes from a hostile file name, and JSON, which must stay valid and carry
/// every name byte for byte.
package enum DisplayText {
    /// `text` with control characters (C0, DEL, C1) and the escaped bytes of `PathEncoding` written
    /// as `\xNN`, so that a name like `"\u{1B}[2Jx.jpg"` cannot clear the screen; other characters
    /// are kept.
    package static func terminal(_ text: String) -> String {
        var output = ""
        output.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if let byte = PathEncoding.escapedByte(scalar) {
                output += hexEscape(byte)
            } else if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                output += hexEscape(UInt8(scalar.value))
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// A JSON string literal for `text`. Quotes, backslashes and control characters are escaped as
    /// JSON requires; a byte that `PathEncoding` escaped (part of a name that is not UTF-8) becomes
    /// the lone surrogate `\udc80`…`\udcff`, Python's `surrogateescape` convention, so
    /// `os.fsencode(json.loads(line)["image"])` gives the name's bytes back.
    package static func jsonString(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if let byte = PathEncoding.escapedByte(scalar) {
                    output += "\\udc" + hex(byte)
                } else if scalar.value < 0x20 {
                    output += "\\u00" + hex(UInt8(scalar.value))
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }

    static func hexEscape(_ byte: UInt8) -> String { "\\x" + hex(byte) }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
