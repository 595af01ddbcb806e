import Foundation
import TestSupport

/// Paths of the repository, its fixtures, and the weights `make test` converts first.
enum Fixtures {
    static let repository = RepositoryFiles.root

    static func path(_ relative: String) -> String { RepositoryFiles.path(relative) }

    /// The converted reference weights (`make weights`); a missing file fails with what to run.
    static func referenceWeights() throws -> String { try require(path("Weights/yolo11n.swyolo")) }

    /// `path`, or an error that says how to make it (`make test` converts the weights and makes the
    /// expected outputs first).
    static func require(_ path: String) throws -> String {
        try RepositoryFiles.require(path, hint: "run `make test` (it converts the weights and makes the fixtures first)")
    }

    /// Writes `bytes` to a fresh file in the test process's scratch directory.
    static func temporaryFile(_ name: String, bytes: [UInt8]) throws -> String {
        try ScratchDirectory.write(bytes, to: name)
    }
}
