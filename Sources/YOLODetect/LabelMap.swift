import FoundationEssentials
import Glibc
import YOLOFileSystem
import YOLOPlatform

/// Display names for class ids, and parsing of class filters (`person,bus` or `0,5`).
public struct LabelMap: Sendable, Equatable {
    /// `names[id]` is the display name of class `id`.
    public let names: [String]

    public init(names: [String]) {
        self.names = names
    }

    public var count: Int { names.count }

    /// The largest labels file read (a million classes of 16-byte names).
    public static let maxFileBytes = 16 << 20

    /// The name of `classId`, or the number itself if the map has no such class.
    public func name(for classId: Int) -> String {
        names.indices.contains(classId) ? names[classId] : String(classId)
    }

    /// Reads a labels file: UTF-8, one display name per line (surrounding spaces and a CR before the
    /// newline are dropped), trailing empty lines ignored. Throws, naming the file, if it cannot
    /// be read, is not UTF-8, has an empty line among the names, or (when `classCount` is given)
    /// does not have exactly that many names.
    public init(contentsOfFile path: String, classCount: Int? = nil) throws(DetectError) {
        let bytes: [UInt8]
        do throws(FileSystemError) {
            bytes = try RegularFile.read(path, maxBytes: Self.maxFileBytes)
        } catch {
            guard case let .unreadable(_, reason) = error else { throw .labelsUnreadable(file: path, reason: "\(error)") }
            throw .labelsUnreadable(file: path, reason: reason)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .labelsUnreadable(file: path, reason: "it is not valid UTF-8 text")
        }
        try self.init(text: text, source: path, classCount: classCount)
    }

    /// Parses labels-file text; `source` names it in errors.
    public init(text: String, source: String, classCount: Int? = nil) throws(DetectError) {
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        // "\r\n" is one Character in Swift, so it is matched as a whole.
        var lines = body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { String($0.trimmingWhitespace()) }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        if let empty = lines.firstIndex(where: \.isEmpty) {
            throw .labelsEmptyLine(file: source, line: empty + 1)
        }
        if let expected = classCount, lines.count != expected {
            throw .labelsCountMismatch(file: source, found: lines.count, expected: expected)
        }
        self.init(names: lines)
    }

    /// Class ids from a comma-separated list of ids and/or names, e.g. `person,bus` or `0, 5`.
    /// Names match exactly, else ignoring case. Returns sorted unique ids.
    public func classIds(parsing spec: String) throws(DetectError) -> [Int] {
        let items = spec.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return try classIds(items: items, spec: spec)
    }

    /// Class ids from separate items (e.g. repeated `--classes` options); each may itself be a
    /// comma-separated list.
    public func classIds(parsing items: [String]) throws(DetectError) -> [Int] {
        let spec = items.joined(separator: ",")
        return try classIds(parsing: spec)
    }

    func classIds(items: [String], spec: String) throws(DetectError) -> [Int] {
        var ids = Set<Int>()
        for raw in items {
            let item = String(raw.trimmingWhitespace())
            if item.isEmpty { throw .invalidClassFilter(spec, reason: "it has an empty item") }
            if item.allSatisfy(\.isASCII), item.allSatisfy(\.isNumber), let id = Int(item) {
                guard id >= 0 && id < count else { throw .classIdOutOfRange(id, classCount: count) }
                ids.insert(id)
            } else if let id = names.firstIndex(of: item) ?? names.firstIndex(where: { $0.lowercased() == item.lowercased() }) {
                ids.insert(id)
            } else {
                throw .unknownClassName(item, validExamples: suggestions(for: item), classCount: count)
            }
        }
        return ids.sorted()
    }

    /// A few valid names to show in an error: those sharing a prefix with `item` first.
    func suggestions(for item: String) -> [String] {
        let lower = item.lowercased()
        let close = names.filter { !lower.isEmpty && $0.lowercased().hasPrefix(String(lower.prefix(2))) }
        var picked: [String] = []
        for name in close + names where !picked.contains(name) {
            picked.append(name)
            if picked.count == 5 { break }
        }
        return picked
    }
}
