/// Plain-text columns for terminal reports: each column as wide as its widest cell, numbers
/// right-aligned, text left-aligned.
struct TextTable {
    enum Alignment { case left, right }

    let headers: [String]
    let alignments: [Alignment]
    private(set) var rows: [[String]] = []

    init(_ columns: [(String, Alignment)]) {
        headers = columns.map(\.0)
        alignments = columns.map(\.1)
    }

    mutating func append(_ row: [String]) {
        precondition(row.count == headers.count, "row of \(row.count) cells in a table of \(headers.count) columns")
        rows.append(row)
    }

    func render(indent: String = "") -> String {
        let widths = headers.indices.map { column in
            ([headers] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return alignments[column] == .right ? padding + cell : cell + padding
            }
            return indent + padded.joined(separator: "  ").replacing(/\s+$/, with: "")
        }
        return ([line(headers)] + rows.map(line)).joined(separator: "\n")
    }
}

extension Int {
    /// `2624080` → `2,624,080`.
    var grouped: String {
        let digits = String(magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (self < 0 ? "-" : "") + result
    }
}
