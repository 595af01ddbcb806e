import TestSupport
import XCTest

import YOLODetect

/// `BestClasses` (eight anchors at a time, then one by one) against the scalar walk of torch's
/// `max(1)` it stands for: the first maximum, NaN anchors marked, on heads with ties, NaNs,
/// infinities and anchor counts that leave a remainder.
final class BestClassesTests: XCTestCase {
    /// The plain walk: for each anchor, the first class with the highest score; NaN if any score is.
    static func reference(_ head: [Float], classCount nc: Int, anchorCount a: Int) -> (score: [Float], classId: [Int], sawNaN: [Bool]) {
        var score = [Float](), classId = [Int](), sawNaN = [Bool]()
        for anchor in 0..<a {
            var best = head[4 * a + anchor], id = 0, nan = best.isNaN
            for c in 1..<nc {
                let s = head[(4 + c) * a + anchor]
                if s > best { best = s; id = c }
                nan = nan || s.isNaN
            }
            score.append(best)
            classId.append(id)
            sawNaN.append(nan)
        }
        return (score, classId, sawNaN)
    }

    func testMatchesTheScalarWalk() {
        var generator = SplitMix64(seed: 23)
        // A few coarse values make exact ties common; NaNs and infinities at random places.
        let values: [Float] = [0, 0.25, 0.5, 0.5, 0.75, 1, -.infinity, .infinity, .nan, -0.0]
        for (nc, a) in [(1, 9), (2, 8), (3, 17), (80, 6300), (80, 7), (5, 0), (7, 33), (4, 1)] {
            for extras in [0, 3] {
                let head = (0..<(4 + nc + extras) * a).map { _ -> Float in
                    Int.random(in: 0..<4, using: &generator) == 0 ? values.randomElement(using: &generator)!
                        : Float.random(in: 0..<1, using: &generator)
                }
                let expected = Self.reference(head, classCount: nc, anchorCount: a)
                let classes = head.withUnsafeBufferPointer { BestClasses(head: $0, classCount: nc, anchorCount: a) }
                let what = "\(nc) classes, \(a) anchors, \(extras) extra rows"
                XCTAssertEqual([classes.classId.count, classes.sawNaN.count, classes.score.count], [a, a, a], what)
                guard classes.classId.count == a, classes.sawNaN.count == a, classes.score.count == a else { continue }
                let wrong = (0..<a).first { (anchor: Int) -> Bool in
                    classes.classId[anchor] != expected.classId[anchor] || classes.sawNaN[anchor] != expected.sawNaN[anchor]
                        || classes.score[anchor].bitPattern != expected.score[anchor].bitPattern
                }
                XCTAssertNil(wrong, "\(what): anchor \(wrong ?? -1) got class \(wrong.map { classes.classId[$0] } ?? -1), "
                             + "expected \(wrong.map { expected.classId[$0] } ?? -1)")
                if a > 100 {  // the test can tell: ties, NaNs and later winners all occur
                    XCTAssertTrue(expected.sawNaN.contains(true) && expected.sawNaN.contains(false), what)
                    XCTAssertGreaterThan(Set(expected.classId).count, nc / 2, what)
                }
            }
        }
    }
}
