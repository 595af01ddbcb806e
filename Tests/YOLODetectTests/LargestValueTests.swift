import TestSupport
import XCTest

import YOLODetect

/// The selection of the rank-th largest value gives what sorting gives, rank by rank, with ties,
/// infinities, signed zeros and runs already in order, the pivots' worst cases among them.
final class LargestValueTests: XCTestCase {
    func testEveryRankMatchesTheSort() {
        var random = SplitMix64(seed: 17)
        var arrays: [[Float]] = [[3], [1, 1], [2, 1], [1, 2], [-0.0, 0.0, -0.0], [.infinity, -.infinity, 0, .infinity]]
        arrays.append(Array((0..<200).map(Float.init)))  // ascending
        arrays.append(Array((0..<200).map(Float.init).reversed()))  // descending
        arrays.append([Float](repeating: 0.5, count: 64))  // all tied
        for count in [3, 10, 33, 257, 1000] {
            // Values on a coarse grid, so that ties are many, and on a fine one.
            arrays.append((0..<count).map { _ in Float(Int.random(in: 0..<8, using: &random)) / 8 })
            arrays.append((0..<count).map { _ in Float.random(in: -1...1, using: &random) })
        }
        for values in arrays {
            let sorted = values.sorted(by: >)
            for rank in 1...values.count {
                // Equal as values: −0 and +0 are the same place in the order.
                XCTAssertEqual(values.largest(rank: rank), sorted[rank - 1], "rank \(rank) of \(values.count) values")
            }
        }
    }
}
