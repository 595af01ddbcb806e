import Foundation
import Testing
import SwiftYOLO

/// Saved results read back (`DetectionResult`'s `Decodable`): whatever the JSON says is decoded or
/// refused with a `DecodingError`, never a crash; the fuzz target's corpus (Fuzz/Corpus/result) is
/// replayed here, its `regression-*` inputs among them.
@Suite struct ResultDecodingTests {
    static let corpus = Fixtures.path("Fuzz/Corpus/result")

    @Test func theFuzzCorpusDecodesOrIsRefused() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).sorted()
        #expect(names.contains { $0.hasPrefix("seed-") } && names.contains { $0.hasPrefix("regression-") })
        for name in names {
            let json = try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + name))
            do {
                let result = try JSONDecoder().decode(DetectionResult.self, from: json)
                #expect(!name.hasPrefix("regression-"), "\(name) decoded")
                #expect(try JSONDecoder().decode(DetectionResult.self, from: JSONEncoder().encode(result)) == result, "\(name)")
            } catch {
                #expect(error is DecodingError, "\(name): \(error)")
                #expect(!name.hasPrefix("seed-"), "\(name) refused: \(error)")
            }
        }
    }

    /// A stage's milliseconds must fit `Duration`'s nanoseconds: up to 9 × 10¹² ms, which round-trips.
    @Test func timingsPastTheLimitAreRefused() throws {
        func timings(decode: String) throws -> StageTimings {
            try JSONDecoder().decode(StageTimings.self, from: Data(#"{"decode": \#(decode), "preprocess": 1.5, "inference": 60, "postprocess": 0.25}"#.utf8))
        }
        let longest = try timings(decode: "9e12")
        #expect(longest.decode == .seconds(9_000_000_000))
        #expect(try JSONDecoder().decode(StageTimings.self, from: JSONEncoder().encode(longest)) == longest)
        for value in ["9.000001e12", "1e19", "1e300", "-1"] {
            #expect(throws: DecodingError.self, "\(value)") { try timings(decode: value) }
        }
    }
}
