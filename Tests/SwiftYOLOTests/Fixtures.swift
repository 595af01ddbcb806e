import Foundation
import TestSupport

/// Paths of the repository, its fixtures, and the weights `make test` converts first.
enum Fixtures {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static func path(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : repository + "/" + relative
    }

    /// The converted reference weights (`make weights`); a missing file fails with what to run.
    static func referenceWeights() throws -> String {
        let path = path("Weights/yolo11n.swyolo")
        guard FileManager.default.fileExists(atPath: path) else {
            throw MissingFixture(path: path)
        }
        return path
    }

    struct MissingFixture: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is missing: run `make test` (it converts the weights first)" }
    }

    /// Writes `bytes` to a fresh file in the test process's scratch directory.
    static func temporaryFile(_ name: String, bytes: [UInt8]) throws -> String {
        try ScratchDirectory.write(bytes, to: name)
    }
}
