import Foundation
import Testing
import SwiftYOLO

/// Detections against Ultralytics' own for the same checkpoint, images and arguments
/// (`Tests/Fixtures/detections/*.json`, made by `tools/expected_detections.py`): the same classes,
/// confidences within 0.005, boxes within 0.5 px in original-image pixels.
@Suite struct ParityTests {
    static let confidenceTolerance: Float = 0.005
    static let boxTolerance: Float = 0.5

    struct Expected: Decodable {
        struct Arguments: Decodable {
            let conf: Double
            let iou: Double
            let imgsz: Int
            let agnostic: Bool
            let max_det: Int
            let classes: [Int]?
        }
        struct Result: Decodable {
            let image: String
            let width: Int
            let height: Int
            let input_shape: [Int]
            let detections: [Detection]
        }
        let arguments: Arguments
        let results: [Result]
    }

    static let fixtures: [String] = {
        let directory = Fixtures.path("Tests/Fixtures/detections")
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }()

    @Test func fixturesExist() {
        #expect(Self.fixtures.count >= 5, "expected detections for defaults, --agnostic, --conf 0.05, --imgsz 320 and --iou 0.45")
    }

    @Test(arguments: fixtures)
    func matchesUltralytics(_ fixture: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Tests/Fixtures/detections/" + fixture)))
        let expected = try JSONDecoder().decode(Expected.self, from: data)
        var options = DetectionOptions()
        options.confidenceThreshold = expected.arguments.conf
        options.iouThreshold = expected.arguments.iou
        options.imageSize = expected.arguments.imgsz
        options.agnostic = expected.arguments.agnostic
        options.maxDetections = expected.arguments.max_det
        options.classes = expected.arguments.classes.map(Set.init)
        let detector = try Detector(modelPath: try Fixtures.referenceWeights(), options: options)
        for reference in expected.results {
            let result = try detector.run(imageAt: Fixtures.path(reference.image))
            let context = "\(fixture) \(reference.image)"
            #expect(result.imageWidth == reference.width && result.imageHeight == reference.height, "\(context): image size")
            #expect([result.inputHeight, result.inputWidth] == reference.input_shape, "\(context): model input size")
            #expect(result.detections.count == reference.detections.count,
                    "\(context): \(result.detections.count) detections, Ultralytics has \(reference.detections.count)")
            var unmatched = result.detections
            for want in reference.detections {
                // The closest detection of the same class: order may differ only between near-equal scores.
                let candidates = unmatched.enumerated().filter { $0.element.classId == want.classId }
                guard let (index, got) = candidates.min(by: { Self.boxError($0.element, want) < Self.boxError($1.element, want) }) else {
                    Issue.record("\(context): missing \(want.label) \(want.confidence) \(want.box)")
                    continue
                }
                #expect(abs(got.confidence - want.confidence) <= Self.confidenceTolerance,
                        "\(context): \(want.label) confidence \(got.confidence), Ultralytics \(want.confidence)")
                #expect(Self.boxError(got, want) <= Self.boxTolerance,
                        "\(context): \(want.label) box \(got.box), Ultralytics \(want.box)")
                #expect(got.label == want.label)
                unmatched.remove(at: index)
            }
        }
    }

    /// The largest coordinate difference between two boxes, in pixels.
    static func boxError(_ a: Detection, _ b: Detection) -> Float {
        max(abs(a.box.x1 - b.box.x1), abs(a.box.y1 - b.box.y1), abs(a.box.x2 - b.box.x2), abs(a.box.y2 - b.box.y2))
    }
}
