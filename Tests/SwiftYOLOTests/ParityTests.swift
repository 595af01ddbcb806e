import Foundation
import Testing
import SwiftYOLO

/// Detections against Ultralytics' own for the same checkpoint, images and arguments
/// (`Tests/Fixtures/detections/*.json`, made by `tools/expected_detections.py`): the same classes,
/// confidences within 0.005, boxes within 0.5 px in original-image pixels.
@Suite struct ParityTests {
    static let match = UltralyticsMatch(confidenceTolerance: 0.005, boxTolerance: 0.5)

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
            Self.match.expectMatch(result.detections, reference.detections, context: context)
        }
    }
}
