import Foundation

/// Paths of the repository's fixtures and of the weights `make test` converts before the tests run.
enum Fixtures {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static func path(_ relative: String) -> String { repository + "/" + relative }

    /// The converted reference weights (`make weights`).
    static var referenceWeights: String { path("Weights/yolo11n.swyolo") }

    /// Fails with a message that says how to make a missing file, instead of skipping silently.
    static func require(_ path: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else {
            throw MissingFixture(path: path)
        }
        return path
    }

    struct MissingFixture: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is missing: run `make test` (it converts the weights and generates the fixtures first)" }
    }
}
