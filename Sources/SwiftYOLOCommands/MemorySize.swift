import ArgumentParser
import FoundationEssentials
import YOLOPlatform
import YOLOTensor
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A number of bytes as the command line writes it: `800M`, `12G`, `1.5G`, or plain bytes.
struct MemorySize: ExpressibleByArgument, CustomStringConvertible {
    let bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        guard let (number, unit) = Self.parts(of: argument), number.isFinite, number > 0, number * unit < 0x1p62 else { return nil }
        bytes = Int(number * unit)
    }

    /// The number and the multiplier of its unit (`1.5G`: 1.5 and 2³⁰; a `B` after the unit is
    /// allowed), before any check of the number's range; `nil` if it is not a number with a unit.
    static func parts(of argument: String) -> (number: Double, unit: Double)? {
        let units: [Character: Double] = ["K": 0x1p10, "M": 0x1p20, "G": 0x1p30, "T": 0x1p40]
        var text = argument.uppercased()
        if text.hasSuffix("B") { text.removeLast() }
        let unit = text.last.flatMap { units[$0] } ?? 1
        if unit != 1 { text.removeLast() }
        return Double(text).map { ($0, unit) }
    }

    /// `12.0 GB` (binary units, one decimal).
    var description: String { formattedByteCount(bytes) }

    /// Half of what this machine (or the memory limit of its control group) has.
    static var defaultLimit: MemorySize {
        var total = Int(sysconf(Int32(_SC_PHYS_PAGES))) * Int(sysconf(Int32(_SC_PAGESIZE)))
        if let text = try? String(contentsOfFile: "/sys/fs/cgroup/memory.max", encoding: .utf8),
           let limit = Int(text.trimmingWhitespace()), limit > 0 {
            total = min(total, limit)
        }
        return MemorySize(bytes: max(total / 2, 1 << 28))
    }
}
