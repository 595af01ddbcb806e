import Glibc

extension String {
    /// `arguments` formatted by the C library's `printf` rules (`"%.2f"`, `"frame_%06d"`): what
    /// Foundation's `String(format:)` gives for numbers (it calls the same C formatting), without
    /// linking Foundation and its ICU data, about 40 MB of the static binary.
    package init(cFormat format: String, _ arguments: any CVarArg...) {
        let first = Self.formatted(format, arguments, capacity: 128)
        self = first.length < 128 ? first.text : Self.formatted(format, arguments, capacity: first.length + 1).text
    }

    /// `vsnprintf` into `capacity` bytes: the text that fitted, and the length of the whole. (A
    /// va_list is spent by one call, so a longer result is formatted again from a new one.)
    private static func formatted(_ format: String, _ arguments: [any CVarArg], capacity: Int) -> (text: String, length: Int) {
        withVaList(arguments) { list in
            var buffer = [UInt8](repeating: 0, count: capacity)
            let length = Int(buffer.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { vsnprintf($0.baseAddress, capacity, format, list) }
            })
            precondition(length >= 0, "vsnprintf failed on the format \(format)")
            return (String(decoding: buffer.prefix(Swift.min(length, capacity - 1)), as: UTF8.self), length)
        }
    }
}
