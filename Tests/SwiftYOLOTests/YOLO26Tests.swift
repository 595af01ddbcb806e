import Foundation
import Testing
import SwiftYOLO
import YOLOModel

/// YOLO26n (`../shared/weights/yolo26n.pt`, converted by `make weights`) against Ultralytics, in both
/// modes: the default one-to-many head with NMS, and `--end2end` (Ultralytics' `nms=False`: the
/// one-to-one head's top-k, no NMS). Expected detections are `Tests/Fixtures/detections-yolo26/*.json`
/// (`tools/expected_detections.py`): the same classes, confidences within 0.01, boxes within 1 px.
@Suite struct YOLO26Tests {
    static let match = UltralyticsMatch(confidenceTolerance: 0.01, boxTolerance: 1)
    static let weights = "Weights/yolo26n.swyolo"

    /// `relative` in the repository; a missing file fails with what to run.
    static func require(_ relative: String) throws -> String {
        let path = Fixtures.path(relative)
        _ = try Fixtures.require(path)
        return path
    }

    static let fixtures = UltralyticsExpectation.files(in: "Tests/Fixtures/detections-yolo26")

    @Test func fixturesCoverBothModes() throws {
        let arguments = try Self.fixtures.map { try Self.load($0).arguments }
        #expect(arguments.contains { $0.end2end == true } && arguments.contains { $0.end2end != true })
        #expect(arguments.contains { $0.end2end == true && $0.classes != nil && ($0.max_det ?? 300) < 300 }, "the class filter before truncation")
        #expect(arguments.contains { $0.end2end == true && $0.agnostic == true })
    }

    static func load(_ fixture: String) throws -> UltralyticsExpectation {
        try UltralyticsExpectation.load("Tests/Fixtures/detections-yolo26/" + fixture)
    }

    @Test(arguments: fixtures)
    func matchesUltralytics(_ fixture: String) throws {
        let expected = try Self.load(fixture)
        #expect(expected.weights?["file"] == "yolo26n.pt")
        let detector = try Detector(modelPath: try Self.require(Self.weights), options: expected.arguments.options)
        for reference in expected.results {
            let result = try detector.run(imageAt: Fixtures.path(reference.image))
            let context = "\(fixture) \(reference.image)"
            #expect(result.imageWidth == reference.width && result.imageHeight == reference.height, "\(context): image size")
            #expect([result.inputHeight, result.inputWidth] == reference.input_shape, "\(context): model input size")
            Self.match.expectMatch(result.detections, reference.detections, context: context)
        }
    }

    /// The top-k selection on Ultralytics' own one-to-one output (`model.23.one2one` of the goldens)
    /// against Ultralytics' `get_topk_index` result on it (`model.23.end2end`, k = 300): the same rows
    /// in the same order, exactly.
    @Test(arguments: ["yolo26n-bus-320x256.swyolo", "yolo26n-random20-seed9-160x128.swyolo"])
    func topKSelectionMatchesUltralytics(_ golden: String) throws {
        let file = try TensorFile(path: try Self.require("Tests/Fixtures/golden/" + golden))
        let head = try file.tensor(named: "model.23.one2one"), selected = try file.tensor(named: "model.23.end2end")
        let (rows, anchors) = (head.shape[1], head.shape[2])
        let detections = try EndToEndSelection(options: PostprocessOptions(confidenceThreshold: 0, maxDetections: 300))
            .detections(head: Array(head.buffer), classCount: rows - 4, anchorCount: anchors)
        let k = selected.shape[1]
        #expect(detections.count == k, "\(golden): \(detections.count) selected, Ultralytics \(k)")
        for (i, detection) in detections.prefix(k).enumerated() {
            let want = Array(selected.buffer[(i * 6)..<(i * 6 + 6)])
            let got = [detection.box.x1, detection.box.y1, detection.box.x2, detection.box.y2, detection.confidence, Float(detection.classId)]
            #expect(got == want, "\(golden) row \(i): \(got), Ultralytics \(want)")
        }
    }

    @Test func commandLineRunsTheEndToEndHeadAndRefusesItWithout() throws {
        let weights = try Self.require(Self.weights)
        let endToEnd = try CommandLineTests.swiftYOLO(["detect", "--json", "--end2end", "--model", weights, CommandLineTests.bus])
        #expect(endToEnd.status == 0, "\(endToEnd.stderr)")
        let object = try CommandLineTests.jsonObject(try #require(endToEnd.lines.first))
        let labels = (object["detections"] as? [[String: Any]])?.compactMap { $0["label"] as? String }
        #expect(labels?.sorted() == ["bus", "person", "person", "person", "person"])
        // YOLO11n has no one-to-one head: a usage error that says so.
        let refused = try CommandLineTests.swiftYOLO(["detect", "--end2end", CommandLineTests.bus])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("no end-to-end (one-to-one) head"), "\(refused.stderr)")
        let inspect = try CommandLineTests.swiftYOLO(["inspect", weights])
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("24 layers, 2,572,280 parameters as stored, 2,562,496 with BatchNorm folded"), "\(inspect.stdout)")
        let bench = try CommandLineTests.swiftYOLO(["bench", "--json", "--runs", "1", "--warmup", "0", "--imgsz", "160", "--model", weights])
        #expect(bench.status == 0, "\(bench.stderr)")
        #expect(try CommandLineTests.jsonObject(bench.stdout)["head"] as? String == "end2end")
    }
}
