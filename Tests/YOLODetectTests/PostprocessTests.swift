import Foundation
import TestSupport
import XCTest

import YOLODetect

final class PostprocessTests: XCTestCase {
    /// Against Ultralytics' `non_max_suppression` on random clustered heads (per-class, agnostic,
    /// class filters, max_det, exact score ties): same rows in the same order, tolerance 0.
    func testMatchesUltralytics() throws {
        let fixture = try NMSFixture.load()
        XCTAssertEqual(fixture.cases.count, 6)
        for (k, c) in fixture.cases.enumerated() {
            let options = PostprocessOptions(confidenceThreshold: Float(c.conf), iouThreshold: c.iou,
                                             classes: c.classes.map(Set.init), agnostic: c.agnostic,
                                             maxDetections: c.maxDet)
            let detections = try Postprocessor(options: options)
                .detections(head: c.prediction, classCount: c.nc, anchorCount: c.anchors)
            let what = "case \(k) (conf \(c.conf), iou \(c.iou), agnostic \(c.agnostic), classes \(c.classes ?? []))"
            XCTAssertGreaterThan(c.expected.count, 3, what)
            XCTAssertEqual(detections.count, c.expected.count, what)
            for (i, (d, row)) in zip(detections, c.expected).enumerated() {
                XCTAssertEqual([d.box.x1, d.box.y1, d.box.x2, d.box.y2, d.confidence, Float(d.classId)], row,
                               "\(what) detection \(i)")
            }
        }
    }

    /// Per-class and agnostic NMS against the naive O(n²) definition (a box survives iff no kept
    /// box of higher rank — same class unless agnostic — overlaps it by IoU > threshold), on
    /// random boxes with integer corners so class offsets are exact in float32.
    func testMatchesNaiveReferenceOnRandomBoxes() throws {
        var rng = SplitMix64(seed: 42)
        for trial in 0..<60 {
            let nc = Int.random(in: 1...4, using: &rng)
            let anchors = Int.random(in: 0...150, using: &rng)
            let agnostic = trial % 2 == 1
            let iou = [0.3, 0.45, 0.5, 0.7, 0.9][trial % 5]
            var head = [Float](repeating: 0, count: (4 + nc) * anchors)
            for a in 0..<anchors {
                head[a] = Float(Int.random(in: 0...300, using: &rng))  // even sizes: integer corners
                head[anchors + a] = Float(Int.random(in: 0...300, using: &rng))
                head[2 * anchors + a] = Float(2 * Int.random(in: 1...60, using: &rng))
                head[3 * anchors + a] = Float(2 * Int.random(in: 1...60, using: &rng))
                for c in 0..<nc { head[(4 + c) * anchors + a] = Float.random(in: 0...1, using: &rng) }
            }
            let options = PostprocessOptions(confidenceThreshold: 0.2, iouThreshold: iou, agnostic: agnostic)
            let fast = try Postprocessor(options: options).detections(head: head, classCount: nc, anchorCount: anchors)
            let slow = naivePostprocess(head: head, nc: nc, anchors: anchors, conf: 0.2, iou: iou, agnostic: agnostic)
            XCTAssertEqual(fast.map(\.box), slow.map(\.box), "trial \(trial): nc \(nc), anchors \(anchors), agnostic \(agnostic)")
            XCTAssertEqual(fast.map(\.classId), slow.map(\.classId), "trial \(trial)")
        }
    }

    /// The plain definition, written independently of the fast path.
    func naivePostprocess(head: [Float], nc: Int, anchors: Int, conf: Float, iou: Double, agnostic: Bool)
        -> [(box: BoundingBox, score: Float, classId: Int)]
    {
        var candidates: [(index: Int, box: BoundingBox, score: Float, classId: Int)] = []
        for a in 0..<anchors {
            let scores = (0..<nc).map { head[(4 + $0) * anchors + a] }
            let best = scores.max() ?? 0
            guard best > conf, let cls = scores.firstIndex(of: best) else { continue }
            let (cx, cy, w, h) = (head[a], head[anchors + a], head[2 * anchors + a], head[3 * anchors + a])
            candidates.append((a, BoundingBox(x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2), best, cls))
        }
        candidates.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        var kept: [(box: BoundingBox, score: Float, classId: Int)] = []
        for c in candidates {
            let suppressed = kept.contains { k in
                (agnostic || k.classId == c.classId) && Double(naiveIoU(k.box, c.box)) > iou
            }
            if !suppressed { kept.append((c.box, c.score, c.classId)) }
        }
        return Array(kept.prefix(300))
    }

    func naiveIoU(_ a: BoundingBox, _ b: BoundingBox) -> Float {
        let iw = max(0, min(a.x2, b.x2) - max(a.x1, b.x1))
        let ih = max(0, min(a.y2, b.y2) - max(a.y1, b.y1))
        let inter = iw * ih
        return inter / (a.area + b.area - inter)
    }

    // MARK: - Hand cases

    /// A head from explicit anchors: (cx, cy, w, h, scores...).
    func head(_ anchors: [[Float]]) -> (values: [Float], nc: Int, count: Int) {
        let nc = anchors[0].count - 4, n = anchors.count
        var values = [Float](repeating: 0, count: (4 + nc) * n)
        for (a, anchor) in anchors.enumerated() {
            for (row, v) in anchor.enumerated() { values[row * n + a] = v }
        }
        return (values, nc, n)
    }

    func run(_ anchors: [[Float]], _ options: PostprocessOptions = PostprocessOptions()) throws -> [Detection] {
        let h = head(anchors)
        return try Postprocessor(options: options).detections(head: h.values, classCount: h.nc, anchorCount: h.count)
    }

    func testAgnosticKeepsFourSeparateBoxesOfOneClass() throws {
        let boxes: [[Float]] = [[50, 50, 40, 40, 0.9, 0], [150, 50, 40, 40, 0.8, 0],
                                [50, 150, 40, 40, 0.7, 0], [150, 150, 40, 40, 0.6, 0]]
        for agnostic in [false, true] {
            let d = try run(boxes, PostprocessOptions(agnostic: agnostic))
            XCTAssertEqual(d.map(\.confidence), [0.9, 0.8, 0.7, 0.6], "agnostic \(agnostic)")
            XCTAssertEqual(d[0].box, BoundingBox(x1: 30, y1: 30, x2: 70, y2: 70))
        }
    }

    func testOverlappingBoxesOfDifferentClasses() throws {
        // IoU of these two is 81/119 ≈ 0.68... use nearly identical boxes: IoU 0.9.
        let boxes: [[Float]] = [[100, 100, 50, 50, 0.9, 0.1], [102, 100, 50, 50, 0.1, 0.8]]
        let perClass = try run(boxes, PostprocessOptions(iouThreshold: 0.5))
        XCTAssertEqual(perClass.map(\.classId), [0, 1])
        let agnostic = try run(boxes, PostprocessOptions(iouThreshold: 0.5, agnostic: true))
        XCTAssertEqual(agnostic.map(\.classId), [0])
        XCTAssertEqual(agnostic.first?.confidence, 0.9)
    }

    func testSameClassOverlapKeepsHigherScore() throws {
        let d = try run([[100, 100, 50, 50, 0.6], [101, 100, 50, 50, 0.95], [300, 300, 10, 10, 0.5]])
        XCTAssertEqual(d.map(\.confidence), [0.95, 0.5])
        XCTAssertEqual(d[0].box.x1, 76)
    }

    func testIoUEqualToThresholdIsKept() throws {
        // Two 10x10 boxes overlapping 5x10: IoU = 50 / 150 = 1/3 exactly in float? 50/150 = 0.33333334.
        let boxes: [BoundingBox] = [BoundingBox(x1: 0, y1: 0, x2: 10, y2: 10), BoundingBox(x1: 5, y1: 0, x2: 15, y2: 10)]
        let iou = Double(Float(50) / Float(150))
        XCTAssertEqual(nonMaxSuppression(boxes: boxes, scores: [0.9, 0.8], iouThreshold: iou), [0, 1])
        XCTAssertEqual(nonMaxSuppression(boxes: boxes, scores: [0.9, 0.8], iouThreshold: iou.nextDown), [0])
    }

    func testTiesKeepInputOrder() {
        let boxes = (0..<5).map { i in BoundingBox(x1: Float(i) * 100, y1: 0, x2: Float(i) * 100 + 10, y2: 10) }
        XCTAssertEqual(nonMaxSuppression(boxes: boxes, scores: [0.5, 0.7, 0.5, 0.7, 0.5], iouThreshold: 0.5),
                       [1, 3, 0, 2, 4])
        // Identical boxes with equal scores: the first one wins.
        let same = [BoundingBox](repeating: BoundingBox(x1: 0, y1: 0, x2: 10, y2: 10), count: 3)
        XCTAssertEqual(nonMaxSuppression(boxes: same, scores: [0.5, 0.5, 0.5], iouThreshold: 0.5), [0])
    }

    func testConfidenceIsStrictlyGreaterInFloat32() throws {
        // torch compares a float32 tensor with float32(conf): a score equal to Float(0.3) is dropped.
        let d = try run([[10, 10, 4, 4, Float(0.3)], [50, 50, 4, 4, Float(0.3).nextUp]],
                        PostprocessOptions(confidenceThreshold: 0.3))
        XCTAssertEqual(d.count, 1)
        XCTAssertEqual(d.first?.box.x1, 48)
    }

    func testBestClassTieTakesTheFirst() throws {
        let d = try run([[10, 10, 4, 4, 0.4, 0.9, 0.9]])
        XCTAssertEqual(d.first?.classId, 1)
    }

    func testClassFilterMaxDetAndMaxCandidates() throws {
        var anchors: [[Float]] = []
        for i in 0..<20 { anchors.append([Float(i) * 30, 0, 10, 10, i % 2 == 0 ? 0.5 + Float(i) / 100 : 0, i % 2 == 1 ? 0.5 + Float(i) / 100 : 0]) }
        XCTAssertEqual(try run(anchors, PostprocessOptions(classes: [1])).map(\.classId), [Int](repeating: 1, count: 10))
        let top3 = try run(anchors, PostprocessOptions(maxDetections: 3))
        let score = { (i: Int) in 0.5 + Float(i) / 100 }  // anchor i's score
        XCTAssertEqual(top3.map(\.confidence), [19, 18, 17].map(score))
        let capped = try run(anchors, PostprocessOptions(maxCandidates: 4))
        XCTAssertEqual(capped.map(\.confidence), [19, 18, 17, 16].map(score))
        XCTAssertEqual(try run(anchors, PostprocessOptions(maxDetections: 0)), [])
    }

    func testNaNScoresAreDropped() throws {
        let d = try run([[10, 10, 4, 4, .nan, 0.9], [50, 50, 4, 4, 0.8, 0.1]])
        XCTAssertEqual(d.map(\.confidence), [0.8])
    }

    func testLabelsAndEmptyInput() throws {
        let h = head([[10, 10, 4, 4, 0.1, 0.9]])
        let d = try Postprocessor(labels: LabelMap(names: ["person", "bus"]))
            .detections(head: h.values, classCount: 2, anchorCount: 1)
        XCTAssertEqual(d.first?.label, "bus")
        XCTAssertEqual(try Postprocessor().detections(head: [], classCount: 80, anchorCount: 0), [])
        XCTAssertEqual(try Postprocessor().detections(head: h.values, classCount: 2, anchorCount: 1).first?.label, "1")
    }

    func testWrongHeadShapeIsAnError() {
        XCTAssertThrowsError(try Postprocessor().detections(head: [Float](repeating: 0, count: 83), classCount: 80, anchorCount: 1)) {
            XCTAssertEqual($0 as? DetectError, .invalidHeadShape(count: 83, classCount: 80, anchorCount: 1))
            XCTAssertTrue("\($0)".contains("84"), "\($0)")
        }
        XCTAssertThrowsError(try Postprocessor().detections(head: [], classCount: 0, anchorCount: 0))
    }

    func testDetectionJSONShape() throws {
        let d = Detection(classId: 5, label: "bus", confidence: 0.5, box: BoundingBox(x1: 1, y1: 2.5, x2: 3, y2: 4))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(d), as: UTF8.self)
        XCTAssertEqual(json, #"{"box":[1,2.5,3,4],"class":5,"confidence":0.5,"label":"bus"}"#)
        XCTAssertEqual(try JSONDecoder().decode(Detection.self, from: Data(json.utf8)), d)
        XCTAssertEqual(d.mapped { BoundingBox(x1: $0.x1 * 2, y1: $0.y1, x2: $0.x2, y2: $0.y2) }.box.x1, 2)
    }
}
