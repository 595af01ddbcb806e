extension StringProtocol {
    /// The text without the characters at its ends for which `isTrimmed` is true.
    package func trimming(while isTrimmed: (Character) -> Bool) -> SubSequence {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else { return self[endIndex...] }
        return self[first...last]
    }

    /// The text without the whitespace at its ends (`Character.isWhitespace`: spaces, tabs, line
    /// breaks and Unicode's other spaces), as Foundation's `trimmingCharacters(in:
    /// .whitespacesAndNewlines)`, which FoundationEssentials does not have.
    package func trimmingWhitespace() -> SubSequence { trimming(while: \.isWhitespace) }
}
