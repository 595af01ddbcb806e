/// A matrix `A` (`rows × depth`, the left operand of `packedGEMM`: a convolution's filters) laid out
/// once, at model load, in the order the GEMM microkernel reads it: panels of `panelRows` rows, each
/// panel depth-major — the `panelRows` values of one column of the panel side by side — so that the
/// kernel walks the panel with one pointer and consecutive loads. The last panel is padded with zero
/// rows, whose results the kernel never stores.
///
///     A (rows × depth, row-major)        storage
///     a00 a01 a02 …                      panel 0: a00 a10 … a70 | a01 a11 … a71 | a02 … | …
///     a10 a11 a12 …                      panel 1: a80 a90 … a15,0 | a81 … | …
package struct PackedMatrix: Sendable {
    /// Rows per panel: the microkernel's tile height.
    package static let panelRows = 8

    package let rows: Int
    package let depth: Int
    /// `panels` panels of `depth · panelRows` floats, `panelStride` floats apart from `offset` (several
    /// matrices can share one array, and a matrix of some of another's columns shares its panels).
    package let storage: [Float]
    package let offset: Int
    package let panelStride: Int

    package var panels: Int { (rows + Self.panelRows - 1) / Self.panelRows }

    /// The floats a `rows × depth` matrix takes in this layout, its last panel's padding rows included.
    package static func floatCount(rows: Int, depth: Int) -> Int {
        (rows + panelRows - 1) / panelRows * panelRows * depth
    }

    /// Packs the `rows × depth` matrix whose row `r` starts at `matrix + r · rowStride`.
    package init(rows: Int, depth: Int, matrix: UnsafePointer<Float>, rowStride: Int) {
        precondition(rows > 0 && depth > 0 && rowStride >= depth, "packing a \(rows)×\(depth) matrix with row stride \(rowStride)")
        self.init(rows: rows, depth: depth) { row, destination in
            let source = matrix + row * rowStride
            var destination = destination
            for column in 0..<depth {
                destination.initialize(to: source[column])
                destination += Self.panelRows
            }
        }
    }

    /// Packs a `rows × depth` matrix given row by row, each in whatever order its source is best
    /// read in: `writeRow(r, destination)` initializes row `r`'s `depth` values, column `c` at
    /// `destination + c · panelRows` (a column left out would stay uninitialized). The last panel's
    /// padding rows are zeros. Every float is written once, with no zero fill first: a model load
    /// packs millions of weights.
    @inline(__always)
    package init(rows: Int, depth: Int, writingRows writeRow: (_ row: Int, _ destination: UnsafeMutablePointer<Float>) -> Void) {
        precondition(rows > 0 && depth > 0, "packing a \(rows)×\(depth) matrix")
        self.rows = rows
        self.depth = depth
        offset = 0
        panelStride = depth * Self.panelRows
        let panelRows = Self.panelRows, panels = (rows + panelRows - 1) / panelRows
        storage = [Float](unsafeUninitializedCapacity: Self.floatCount(rows: rows, depth: depth)) { packed, count in
            for row in 0..<rows {
                let (panel, lane) = row.quotientAndRemainder(dividingBy: panelRows)
                writeRow(row, packed.baseAddress! + panel * depth * panelRows + lane)
            }
            for row in rows..<(panels * panelRows) {
                let (panel, lane) = row.quotientAndRemainder(dividingBy: panelRows)
                for column in 0..<depth { packed.initializeElement(at: (panel * depth + column) * panelRows + lane, to: 0) }
            }
            count = Self.floatCount(rows: rows, depth: depth)
        }
    }

    /// The matrix at `offset` in `packed`, already in this layout (`panels · depth · panelRows`
    /// floats, padding rows 0). Matrices made from one array share it.
    package init(rows: Int, depth: Int, packed: [Float], offset: Int) {
        precondition(rows > 0 && depth > 0 && offset >= 0
                     && offset + Self.floatCount(rows: rows, depth: depth) <= packed.count,
                     "a \(rows)×\(depth) matrix at \(offset) of \(packed.count) packed floats")
        self.rows = rows
        self.depth = depth
        self.offset = offset
        panelStride = depth * Self.panelRows
        storage = packed
    }

    /// The matrix of columns `range`, sharing this one's storage: within a panel the columns are
    /// consecutive runs of `panelRows` floats, so each panel's share of them is too. (A 1×1
    /// convolution over a concatenation multiplies the parts read at a different size by their own
    /// columns of the filters.)
    package func columns(_ range: Range<Int>) -> PackedMatrix {
        precondition(range.lowerBound >= 0 && range.upperBound <= depth && !range.isEmpty, "columns \(range) of a \(rows)×\(depth) matrix")
        return PackedMatrix(rows: rows, depth: range.count, storage: storage, offset: offset + range.lowerBound * Self.panelRows,
                            panelStride: panelStride)
    }

    private init(rows: Int, depth: Int, storage: [Float], offset: Int, panelStride: Int) {
        (self.rows, self.depth, self.storage, self.offset, self.panelStride) = (rows, depth, storage, offset, panelStride)
    }

    /// Where panel `panel` starts in `storage`.
    package func panelOffset(_ panel: Int) -> Int { offset + panel * panelStride }

    /// The row-major matrix back (tests, and anyone who wants to see what was packed).
    package var unpacked: [Float] {
        (0..<(rows * depth)).map { index in
            let (row, column) = index.quotientAndRemainder(dividingBy: depth)
            let (panel, lane) = row.quotientAndRemainder(dividingBy: Self.panelRows)
            return storage[panelOffset(panel) + column * Self.panelRows + lane]
        }
    }
}
