/// The media type of a `Content-Type` value (RFC 9110, 8.3.1): what comes before its first `;`,
/// without spaces and tabs around it, lowercased (type and subtype are case-insensitive).
/// `MediaType.of("Multipart/Form-Data; boundary=x")` is `"multipart/form-data"`.
package enum MediaType {
    package static func of(_ contentType: some StringProtocol) -> String {
        let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return type.trimmingOptionalWhitespace().lowercased()
    }
}
