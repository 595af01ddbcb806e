import YOLOPlatform

/// The file part of a `multipart/form-data` body (RFC 7578), as browsers and `curl -F` send an
/// upload: the part named `image` or `file`, else the first part with a file name, else the first.
///
/// The parser only slices the body it is given (its size is bounded by the server before it is
/// read); header blocks over 16 KiB, a missing boundary or a part that never ends are errors.
package struct MultipartFormData: Sendable {
    package struct Part: Sendable, Equatable {
        /// The `name` of its `Content-Disposition`.
        package var name: String?
        /// The `filename` of its `Content-Disposition`.
        package var filename: String?
        /// Its `Content-Type`, lowercased, without parameters.
        package var contentType: String?
        package var body: ArraySlice<UInt8>
    }

    package let parts: [Part]

    /// The longest header block of one part.
    package static let maximumHeaderBytes = 16 * 1024
    /// The most parts a body may have.
    package static let maximumParts = 64

    /// The boundary of a `Content-Type: multipart/form-data; boundary=…` header, or `nil` if the type
    /// is not form data or names no usable boundary (1 to 70 characters, RFC 2046).
    package static func boundary(contentType: String) -> String? {
        guard MediaType.of(contentType) == "multipart/form-data" else { return nil }
        let fields = contentType.split(separator: ";").map { $0.trimmingOptionalWhitespace() }
        for field in fields.dropFirst() {
            guard let equals = field.firstIndex(of: "=") else { continue }
            guard field[..<equals].trimmingOptionalWhitespace().lowercased() == "boundary" else { continue }
            var value = field[field.index(after: equals)...].trimmingOptionalWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            guard (1...70).contains(value.utf8.count), !value.utf8.contains(where: { $0 < 0x20 || $0 > 0x7E }) else { return nil }
            return String(value)
        }
        return nil
    }

    /// Splits `body` at `boundary`; throws a 400 `RequestError` naming what is malformed.
    package init(body: [UInt8], boundary: String) throws(RequestError) {
        let delimiter = Array("--\(boundary)".utf8)
        let crlf: [UInt8] = [13, 10]
        // The first delimiter may follow a preamble; each later one follows CRLF.
        guard var position = Self.find(delimiter, in: body, from: 0) else {
            throw .badRequest("multipart body: no boundary '\(boundary)'")
        }
        var parts: [Part] = []
        while true {
            position += delimiter.count
            if body[position...].starts(with: [45, 45]) { break }  // "--": the closing delimiter
            // Transport padding, then CRLF before the part's headers.
            while position < body.count, body[position] == 32 || body[position] == 9 { position += 1 }
            guard body[position...].starts(with: crlf) else { throw .badRequest("multipart body: a boundary is not followed by a line break") }
            position += 2
            let headerEnd: Int  // where the blank line after the headers begins
            if body[position...].starts(with: crlf) {
                headerEnd = position - 2  // no headers
            } else if let end = Self.find([13, 10, 13, 10], in: body, from: position, limit: Self.maximumHeaderBytes + 4) {
                headerEnd = end
            } else {
                throw .badRequest("multipart body: a part's headers do not end within \(Self.maximumHeaderBytes) bytes")
            }
            let headers = headerEnd > position ? body[position..<headerEnd] : []
            let contentStart = headerEnd + 4
            guard let next = Self.find(crlf + delimiter, in: body, from: contentStart) else {
                throw .badRequest("multipart body: a part does not end with the boundary")
            }
            guard parts.count < Self.maximumParts else { throw .badRequest("multipart body: more than \(Self.maximumParts) parts") }
            parts.append(try Self.part(headers: headers, body: body[contentStart..<next]))
            position = next + 2
        }
        self.parts = parts
    }

    /// The uploaded file: the part named `image` or `file`, else the first with a file name, else the first.
    package var file: Part? {
        parts.first { $0.name == "image" || $0.name == "file" } ?? parts.first { $0.filename != nil } ?? parts.first
    }

    private static func part(headers: ArraySlice<UInt8>, body: ArraySlice<UInt8>) throws(RequestError) -> Part {
        var part = Part(body: body)
        for line in headers.split(separator: 10) {
            guard let text = String(validating: line.last == 13 ? line.dropLast() : line, as: UTF8.self) else {
                throw .badRequest("multipart body: a part header is not UTF-8")
            }
            guard let colon = text.firstIndex(of: ":") else { throw .badRequest("multipart body: a part header has no ':'") }
            let name = text[..<colon].trimmingOptionalWhitespace().lowercased()
            let value = text[text.index(after: colon)...].trimmingOptionalWhitespace()
            switch name {
            case "content-disposition":
                let parameters = Self.parameters(value)
                part.name = parameters["name"]
                part.filename = parameters["filename"]
            case "content-type":
                part.contentType = value.isEmpty ? nil : MediaType.of(value)
            default:
                break
            }
        }
        return part
    }

    /// `name="image"; filename="bus.jpg"` → `["name": "image", "filename": "bus.jpg"]`; quoted
    /// values may hold `;` and backslash-escaped quotes.
    private static func parameters(_ value: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = value[...]
        while let semicolon = rest.firstIndex(of: ";") {
            rest = rest[rest.index(after: semicolon)...].drop { $0 == " " || $0 == "\t" }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let key = rest[..<equals].trimmingOptionalWhitespace().lowercased()
            var valueStart = rest[rest.index(after: equals)...]
            var text = ""
            if valueStart.first == "\"" {
                valueStart = valueStart.dropFirst()
                var escaped = false
                var end = valueStart.endIndex
                for index in valueStart.indices {
                    let character = valueStart[index]
                    if escaped { text.append(character); escaped = false } else if character == "\\" { escaped = true } else if character == "\"" {
                        end = index
                        break
                    } else { text.append(character) }
                }
                rest = end < valueStart.endIndex ? valueStart[valueStart.index(after: end)...] : valueStart[valueStart.endIndex...]
            } else {
                let end = valueStart.firstIndex(of: ";") ?? valueStart.endIndex
                text = String(valueStart[..<end].trimmingOptionalWhitespace())
                rest = valueStart[end...]
            }
            result[key] = text
        }
        return result
    }

    /// The first index at or after `start` where `pattern` begins, looking at most `limit` bytes.
    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int, limit: Int = .max) -> Int? {
        guard let first = pattern.first, start <= bytes.count else { return nil }
        let last = min(bytes.count - pattern.count, limit == .max ? .max : start + limit - pattern.count)
        guard last >= start else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            var index = start
            while index <= last {
                guard buffer[index] == first else { index += 1; continue }
                var matches = true
                for offset in 1..<pattern.count where buffer[index + offset] != pattern[offset] { matches = false; break }
                if matches { return index }
                index += 1
            }
            return nil
        }
    }
}

extension StringProtocol {
    /// The text without the spaces and tabs at its ends: HTTP's optional whitespace (RFC 9110 §5.6.3).
    func trimmingOptionalWhitespace() -> SubSequence { trimming(while: { $0 == " " || $0 == "\t" }) }
}
