import TestSupport
import XCTest

import YOLODetect

/// The end-to-end selection (which ranks only the scores above `conf`) against a naive twin that
/// follows Ultralytics' `get_topk_index` and the end-to-end branch of `non_max_suppression` step by
/// step over every anchor and class, on random heads: same rows in the same order.
final class EndToEndSelectionTests: XCTestCase {
    /// Ultralytics' steps literally: top-k anchors by best score, top-k of their k × nc scores (or,
    /// agnostic, the anchors' best classes), then `score > conf`, the class filter, the first max_det.
    static func naiveSelection(head: [Float], classCount nc: Int, anchorCount a: Int, options: PostprocessOptions) -> [[Float]] {
        let k = min(max(options.maxDetections, 300), a)
        func score(_ anchor: Int, _ c: Int) -> Float { head[(4 + c) * a + anchor] }
        let best: [Float] = (0..<a).map { anchor in (0..<nc).map { score(anchor, $0) }.max() ?? 0 }
        let bestClass: [Int] = (0..<a).map { anchor in (0..<nc).first { score(anchor, $0) == best[anchor] } ?? 0 }
        let topAnchors = (0..<a).sorted { (i: Int, j: Int) -> Bool in best[i] != best[j] ? best[i] > best[j] : i < j }.prefix(k)
        var rows: [(anchor: Int, classId: Int, score: Float)]
        if options.agnostic {
            rows = topAnchors.map { ($0, bestClass[$0], best[$0]) }
        } else {
            rows = topAnchors.flatMap { anchor in (0..<nc).map { (anchor, $0, score(anchor, $0)) } }
            rows.sort { $0.score != $1.score ? $0.score > $1.score : ($0.anchor, $0.classId) < ($1.anchor, $1.classId) }
            rows = Array(rows.prefix(k))
        }
        rows = rows.filter { $0.score > options.confidenceThreshold && (options.classes?.contains($0.classId) ?? true) }
        return rows.prefix(options.maxDetections).map { row in
            [head[row.anchor], head[a + row.anchor], head[2 * a + row.anchor], head[3 * a + row.anchor], row.score, Float(row.classId)]
        }
    }

    func testMatchesTheNaiveTwin() throws {
        var random = SplitMix64(seed: 26)
        var checked = 0
        for trial in 0..<60 {
            let nc = Int.random(in: 1...6, using: &random)
            // Fewer and more anchors than the 300 the head always ranks.
            let a = [7, 120, 299, 301, 450, 900][trial % 6]
            var head = (0..<(4 * a)).map { _ in Float.random(in: 0..<640, using: &random) }
            // Scores on a coarse grid, so that exact ties occur.
            head += (0..<(nc * a)).map { _ in Float(Int.random(in: 0...40, using: &random)) / 40 }
            var options = PostprocessOptions(confidenceThreshold: [0, 0.25, 0.6, 0.9][trial % 4], maxDetections: [1, 3, 50, 300, 500][trial % 5])
            options.agnostic = trial % 3 == 0
            if trial % 4 == 1 { options.classes = Set((0..<nc).filter { $0 % 2 == 0 }) }
            let got = try EndToEndSelection(options: options).detections(head: head, classCount: nc, anchorCount: a)
                .map { [$0.box.x1, $0.box.y1, $0.box.x2, $0.box.y2, $0.confidence, Float($0.classId)] }
            let want = Self.naiveSelection(head: head, classCount: nc, anchorCount: a, options: options)
            XCTAssertEqual(got, want, "trial \(trial): nc \(nc), anchors \(a), conf \(options.confidenceThreshold), max_det \(options.maxDetections), agnostic \(options.agnostic), classes \(options.classes.map { Array($0).sorted() } ?? [])")
            checked += want.count
        }
        XCTAssertGreaterThan(checked, 1000, "the trials must select something")
    }

    /// The class filter comes after the head's top-k (k = min(max(max_det, 300), anchors)) and before
    /// the max_det cut: with three anchors, k is 3, and the three best (anchor, class) scores are all
    /// class 1, so asking for class 0 gives nothing, as in Ultralytics; class 1 fills max_det.
    func testClassFilterAfterTopKBeforeTruncation() throws {
        let head: [Float] = [0, 10, 20, /* y1 */ 0, 0, 0, /* x2 */ 5, 15, 25, /* y2 */ 5, 5, 5,
                             /* class 0 */ 0.5, 0.4, 0.3, /* class 1 */ 0.9, 0.8, 0.7]
        let classZero = try EndToEndSelection(options: PostprocessOptions(classes: [0], maxDetections: 2))
            .detections(head: head, classCount: 2, anchorCount: 3)
        XCTAssertEqual(classZero.count, 0)
        let classOne = try EndToEndSelection(options: PostprocessOptions(classes: [1], maxDetections: 2))
            .detections(head: head, classCount: 2, anchorCount: 3)
        XCTAssertEqual(classOne.map(\.confidence), [0.9, 0.8])
        XCTAssertEqual(classOne.map(\.box.x1), [0, 10])
    }

    func testWrongHeadSizeIsAnError() {
        XCTAssertThrowsError(try EndToEndSelection().detections(head: [0, 1, 2], classCount: 2, anchorCount: 3))
    }
}
