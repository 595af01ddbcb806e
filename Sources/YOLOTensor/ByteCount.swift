/// `5.9 GB`, `30.2 MB`: a number of bytes in binary units with one decimal (`812 bytes` below a
/// kibibyte), as the command line and the errors about memory write it.
package func formattedByteCount(_ bytes: Int) -> String {
    let units = [(40, "TB"), (30, "GB"), (20, "MB"), (10, "KB")]
    guard let (shift, name) = units.first(where: { bytes >= 1 << $0.0 }) else { return "\(bytes) bytes" }
    let tenths = (Double(bytes) / Double(1 << shift) * 10).rounded()
    return "\(Int(tenths) / 10).\(Int(tenths) % 10) \(name)"
}
