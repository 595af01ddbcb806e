import Foundation
import Testing
import SwiftYOLO

/// Segmentation and pose against Ultralytics' own `predict(retina_masks=True)` for the same
/// checkpoints and images (`Tests/Fixtures/tasks/*.json`, made by `tools/expected_tasks.py`): the same
/// classes, confidences within 0.01, boxes within 1 px, each mask with IoU ≥ 0.95, each keypoint whose
/// confidence is ≥ 0.5 within 1.5 px and every keypoint confidence within 0.02. Run through the
/// library on every image, and through `swift-yolo detect --json` (the RLE string and keypoint
/// arrays of the JSON contract) on every image as one command.
@Suite struct TaskParityTests {
    static let match = UltralyticsMatch(confidenceTolerance: 0.01, boxTolerance: 1)
    static let minimumMaskIoU = 0.95
    static let keypointTolerance: Float = 1.5
    static let keypointConfidenceTolerance: Float = 0.02
    /// Keypoints below this confidence are not held to a position (Ultralytics draws none of them).
    static let visibleKeypoint: Float = 0.5

    static let cases = [("segment-default.json", "Weights/yolo11n-seg.swyolo"), ("pose-default.json", "Weights/yolo11n-pose.swyolo")]

    static func load(_ fixture: String, weights: String) throws -> (UltralyticsExpectation, String) {
        let path = Fixtures.path(weights)
        _ = try Fixtures.require(path)
        return (try UltralyticsExpectation.load("Tests/Fixtures/tasks/" + fixture), path)
    }

    @Test(arguments: cases)
    func libraryMatchesUltralytics(_ fixture: String, weights: String) throws {
        let (expected, path) = try Self.load(fixture, weights: weights)
        let detector = try Detector(modelPath: path, options: expected.arguments.options)
        for reference in expected.results {
            let result = try detector.run(imageAt: Fixtures.path(reference.image))
            #expect([result.inputHeight, result.inputWidth] == reference.input_shape, "\(reference.image): model input size")
            Self.compare(result.detections, reference.detections, context: "\(fixture) \(reference.image)")
        }
    }

    @Test(arguments: cases)
    func commandLineMatchesUltralytics(_ fixture: String, weights: String) throws {
        let (expected, path) = try Self.load(fixture, weights: weights)
        let run = try CommandLineTests.swiftYOLO(["detect", "--json", "--model", path] + expected.results.map { Fixtures.path($0.image) })
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.count == expected.results.count)
        for (line, reference) in zip(run.lines, expected.results) {
            let decoded = try DetectJSONLine(line)
            #expect(decoded.width == reference.width && decoded.height == reference.height)
            Self.compare(decoded.detections, reference.detections, context: "detect --json \(fixture) \(reference.image)")
            if expected.task == "segment" { #expect(line.contains("\"mask\": {\"size\": [\(reference.height), \(reference.width)], \"counts\": \"")) }
            if expected.task == "pose" { #expect(line.contains("\"keypoints\": [[")) }
        }
    }

    /// `UltralyticsMatch`'s checks, then each pair's mask and keypoints.
    static func compare(_ detections: [Detection], _ reference: [Detection], context: String) {
        for (got, want) in match.expectMatch(detections, reference, context: context) {
            if let wantMask = want.mask {
                if let mask = got.mask {
                    let iou = intersectionOverUnion(mask, wantMask)
                    #expect(iou >= minimumMaskIoU, "\(context): \(want.label) mask IoU \(iou)")
                } else {
                    Issue.record("\(context): \(want.label) has no mask")
                }
            }
            if let wantKeypoints = want.keypoints {
                guard let keypoints = got.keypoints, keypoints.count == wantKeypoints.count else {
                    Issue.record("\(context): \(want.label) has \(got.keypoints?.count ?? 0) keypoints, Ultralytics \(wantKeypoints.count)")
                    continue
                }
                for (k, (point, wantPoint)) in zip(keypoints, wantKeypoints).enumerated() {
                    #expect(abs(point.confidence - wantPoint.confidence) <= keypointConfidenceTolerance,
                            "\(context): keypoint \(k) confidence \(point.confidence), Ultralytics \(wantPoint.confidence)")
                    if wantPoint.confidence >= visibleKeypoint {
                        let error = max(abs(point.x - wantPoint.x), abs(point.y - wantPoint.y))
                        #expect(error <= keypointTolerance, "\(context): keypoint \(k) at (\(point.x), \(point.y)), Ultralytics (\(wantPoint.x), \(wantPoint.y))")
                    }
                }
            }
        }
    }

    static func intersectionOverUnion(_ a: InstanceMask, _ b: InstanceMask) -> Double {
        guard a.imageWidth == b.imageWidth, a.imageHeight == b.imageHeight else { return 0 }
        let x = a.bitmap(), y = b.bitmap()
        var intersection = 0, union = 0
        for i in x.indices {
            intersection += Int(x[i] & y[i])
            union += Int(x[i] | y[i])
        }
        return union == 0 ? 1 : Double(intersection) / Double(union)
    }
}

/// The face rule on real pictures with the reference pose model: in zidane.jpg Ancelotti looks at the
/// camera and Zidane, shouting to the side, does not; in bus.jpg the two people walking towards the
/// camera with their faces seen are frontal.
@Suite struct FaceOnPicturesTests {
    @Test func zidaneAndBus() throws {
        let path = Fixtures.path("Weights/yolo11n-pose.swyolo")
        _ = try Fixtures.require(path)
        let detector = try Detector(modelPath: path)
        let zidane = try detector.run(imageAt: Fixtures.path("../shared/images/zidane.jpg"))
        let faces = zidane.detections.map { $0.keypoints.flatMap { Face(keypoints: $0, imageWidth: 1280, imageHeight: 720) } }
        #expect(faces.count == 2 && faces.allSatisfy { $0 != nil })
        // Detections by confidence: Zidane (left, 0.89), then Ancelotti (right, 0.84).
        #expect(faces.map { $0?.frontal } == [false, true])
        if let ancelotti = faces[1] {
            #expect(ancelotti.box.x1 > 850 && ancelotti.box.x2 < 1100 && ancelotti.box.y1 > 60 && ancelotti.box.y2 < 330, "\(ancelotti.box)")
        }
        let bus = try detector.run(imageAt: Fixtures.path("../shared/images/bus.jpg"))
        let busFaces = bus.detections.compactMap { $0.keypoints.flatMap { Face(keypoints: $0, imageWidth: 810, imageHeight: 1080) } }
        #expect(busFaces.count == 2 && busFaces.allSatisfy(\.frontal))
    }

    @Test func commandLinePrintsTheCounts() throws {
        let model = Fixtures.path("Weights/yolo11n-pose.swyolo"), zidane = Fixtures.path("../shared/images/zidane.jpg")
        let table = try CommandLineTests.swiftYOLO(["detect", "--faces", "--model", model, zidane])
        #expect(table.status == 0 && table.stdout.contains("  2 faces, 1 frontal"), "\(table.stdout)")
        let json = try CommandLineTests.swiftYOLO(["detect", "--faces", "--json", "--model", model, zidane])
        #expect(json.lines.count == 1 && json.stdout.contains("\"frontal\": true") && json.stderr.contains("2 faces, 1 frontal"))
    }
}
