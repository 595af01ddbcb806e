import FoundationEssentials
import Glibc

/// Why post-processing or a label/class specification was refused. Each description names the
/// offending input and says what would be accepted.
public enum DetectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The head output does not hold `(4 + classCount) × anchorCount` floats.
    case invalidHeadShape(count: Int, classCount: Int, anchorCount: Int)
    /// A labels file could not be read or is not UTF-8.
    case labelsUnreadable(file: String, reason: String)
    /// A labels file has an empty line before its last name.
    case labelsEmptyLine(file: String, line: Int)
    /// A labels file names a different number of classes than the model has.
    case labelsCountMismatch(file: String, found: Int, expected: Int)
    /// A class filter names a class the model does not have.
    case unknownClassName(String, validExamples: [String], classCount: Int)
    /// A class filter gives an id outside `0..<classCount`.
    case classIdOutOfRange(Int, classCount: Int)
    /// A class filter is empty or has an empty item.
    case invalidClassFilter(String, reason: String)

    public var description: String {
        switch self {
        case .invalidHeadShape(let count, let nc, let anchors):
            return "head output has \(count) values; expected (4 + \(nc) classes) x \(anchors) anchors = "
                + "\((4 + nc) * anchors)"
        case .labelsUnreadable(let file, let reason):
            return "cannot read labels file '\(file)': \(reason)"
        case .labelsEmptyLine(let file, let line):
            return "labels file '\(file)' has an empty line \(line); give one name per line"
        case .labelsCountMismatch(let file, let found, let expected):
            return "labels file '\(file)' has \(found) names but the model has \(expected) classes"
        case .unknownClassName(let name, let examples, let count):
            let more = count > examples.count ? ", … (\(count) classes; ids 0-\(count - 1) work too)" : ""
            return "unknown class '\(name)'; valid names include \(examples.map { "'\($0)'" }.joined(separator: ", "))\(more)"
        case .classIdOutOfRange(let id, let count):
            return "class id \(id) is out of range; the model has classes 0-\(count - 1)"
        case .invalidClassFilter(let spec, let reason):
            return "invalid class list '\(spec)': \(reason)"
        }
    }
}

extension DetectError: LocalizedError {
    /// The same one-line message as `description`: the file or input, and what is wrong with it.
    public var errorDescription: String? { description }
}
