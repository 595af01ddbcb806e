import Foundation
import TestSupport

/// Paths of the repository's fixtures and of the weights `make test` converts before the tests run.
enum Fixtures {
    static let repository = RepositoryFiles.root

    static func path(_ relative: String) -> String { RepositoryFiles.path(relative) }

    /// The converted reference weights (`make weights`).
    static var referenceWeights: String { path("Weights/yolo11n.swyolo") }

    /// Fails with a message that says how to make a missing file, instead of skipping silently.
    static func require(_ path: String) throws -> String {
        try RepositoryFiles.require(path, hint: "run `make test` (it converts the weights and generates the fixtures first)")
    }
}
