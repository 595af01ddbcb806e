import Foundation

/// The repository's files as the tests find them: paths from its root (this file is
/// `Tests/TestSupport/RepositoryFiles.swift`), and a missing file as an error that says how to make
/// it, so that a test fails instead of skipping.
public enum RepositoryFiles {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// `relative` under the root; an absolute path as it is.
    public static func path(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : root + "/" + relative
    }

    /// `path`, or `Missing` (with `hint`, what makes it) when no file is there.
    public static func require(_ path: String, hint: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else { throw Missing(path: path, hint: hint) }
        return path
    }

    public struct Missing: Error, CustomStringConvertible {
        public let path: String
        public let hint: String
        public var description: String { "\(path) is missing: \(hint)" }
    }
}
