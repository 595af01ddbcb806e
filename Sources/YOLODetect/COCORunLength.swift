/// COCO run-length encoding of a binary mask, in the compressed string form pycocotools reads
/// (`rleToString` / `rleFrString`): the counts alternate runs of 0s and 1s in column-major order,
/// starting with 0s; from the fourth on each is stored as the difference with the count two before,
/// in little-endian groups of 5 bits, each group + 48 as one character, 0x20 marking that more follow.
package enum COCORunLength {
    /// The string form of `counts`.
    package static func string(_ counts: [Int]) -> String {
        var characters: [UInt8] = []
        characters.reserveCapacity(counts.count * 2)
        for (i, count) in counts.enumerated() {
            var x = count - (i > 2 ? counts[i - 2] : 0)
            var more = true
            while more {
                var c = x & 0x1f
                x >>= 5  // arithmetic shift, as on pycocotools' C long
                more = c & 0x10 != 0 ? x != -1 : x != 0
                if more { c |= 0x20 }
                characters.append(UInt8(c + 48))
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// The counts of a string form; `nil` if it is malformed (a character outside 48…111, a
    /// truncated count, an overflow or a negative count).
    package static func counts(_ string: String) -> [Int]? {
        var counts: [Int] = []
        var bytes = string.utf8.makeIterator()
        while let first = bytes.next() {
            var x = 0, k = 0, byte: UInt8? = first
            while true {
                guard let b = byte, (48...111).contains(b), k < 12 else { return nil }
                let c = Int(b) - 48
                x |= (c & 0x1f) << (5 * k)
                k += 1
                if c & 0x20 == 0 {
                    if c & 0x10 != 0 { x |= -1 << (5 * k) }
                    break
                }
                byte = bytes.next()
            }
            if counts.count > 2 {
                let (sum, overflow) = x.addingReportingOverflow(counts[counts.count - 2])
                guard !overflow else { return nil }
                x = sum
            }
            guard x >= 0 else { return nil }
            counts.append(x)
        }
        return counts
    }
}
