import Foundation
import Testing
import SwiftYOLO

/// Detections against Ultralytics' own for the same checkpoint, images and arguments
/// (`Tests/Fixtures/detections/*.json`, made by `tools/expected_detections.py`): the same classes,
/// confidences within 0.005, boxes within 0.5 px in original-image pixels.
@Suite struct ParityTests {
    static let match = UltralyticsMatch(confidenceTolerance: 0.005, boxTolerance: 0.5)

    static let fixtures = UltralyticsExpectation.files(in: "Tests/Fixtures/detections")

    @Test func fixturesExist() {
        #expect(Self.fixtures.count >= 5, "expected detections for defaults, --agnostic, --conf 0.05, --imgsz 320 and --iou 0.45")
    }

    @Test(arguments: fixtures)
    func matchesUltralytics(_ fixture: String) throws {
        let expected = try UltralyticsExpectation.load("Tests/Fixtures/detections/" + fixture)
        let detector = try Detector(modelPath: try Fixtures.referenceWeights(), options: expected.arguments.options)
        for reference in expected.results {
            let result = try detector.run(imageAt: Fixtures.path(reference.image))
            let context = "\(fixture) \(reference.image)"
            #expect(result.imageWidth == reference.width && result.imageHeight == reference.height, "\(context): image size")
            #expect([result.inputHeight, result.inputWidth] == reference.input_shape, "\(context): model input size")
            Self.match.expectMatch(result.detections, reference.detections, context: context)
        }
    }
}
