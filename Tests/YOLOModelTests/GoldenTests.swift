import Foundation
import Testing
import YOLOModel

/// The whole network against tensors dumped from Ultralytics/PyTorch (`tools/golden.py`): every
/// top-level layer, then the head within 0.01 px on boxes and 1e-4 on scores.
@Suite struct GoldenTests {
    struct Case: CustomStringConvertible, Sendable {
        let weights: String
        let golden: String
        var description: String { golden.split(separator: "/").last.map(String.init) ?? golden }
    }

    static let cases = [
        // The reference COCO checkpoint on bus.jpg, letterboxed to 320×256.
        Case(weights: "Weights/yolo11n.swyolo", golden: "Tests/Fixtures/golden/yolo11n-bus-320x256.swyolo"),
        // A seeded random YOLO11n with 38 classes and random BatchNorm statistics, fp16-rounded weights.
        Case(weights: "Tests/Fixtures/generated/yolo11n-random38.swyolo", golden: "Tests/Fixtures/golden/yolo11n-random38-seed7-160x128.swyolo"),
        // A seeded random YOLO11m: C3k inner blocks, widths capped by max_channels.
        Case(weights: "Tests/Fixtures/generated/yolo11m-random.swyolo", golden: "Tests/Fixtures/golden/yolo11m-random-seed11-128x96.swyolo"),
        // The reference segmentation and pose checkpoints: boxes, scores, mask coefficients, keypoints, prototypes.
        Case(weights: "Weights/yolo11n-seg.swyolo", golden: "Tests/Fixtures/golden/yolo11n-seg-bus-160x128.swyolo"),
        Case(weights: "Weights/yolo11n-pose.swyolo", golden: "Tests/Fixtures/golden/yolo11n-pose-zidane-128x160.swyolo"),
        // Seeded random seg (7 classes) and pose (2 classes, 5 keypoints) models with random BatchNorm statistics.
        Case(weights: "Tests/Fixtures/generated/yolo11n-seg-random7.swyolo", golden: "Tests/Fixtures/golden/yolo11n-seg-random7-seed5-128x96.swyolo"),
        Case(weights: "Tests/Fixtures/generated/yolo11n-pose-random2.swyolo", golden: "Tests/Fixtures/golden/yolo11n-pose-random2-seed6-96x128.swyolo"),
        // YOLO26n (end-to-end head, no DFL, SPPF shortcut, C3k2 attention) on bus.jpg, and a seeded random
        // YOLO26n with 20 classes and random BatchNorm statistics: both heads, decoded and per level.
        Case(weights: "Weights/yolo26n.swyolo", golden: "Tests/Fixtures/golden/yolo26n-bus-320x256.swyolo"),
        Case(weights: "Tests/Fixtures/generated/yolo26n-random20.swyolo", golden: "Tests/Fixtures/golden/yolo26n-random20-seed9-160x128.swyolo"),
    ]

    @Test(arguments: cases)
    func matchesPyTorch(_ c: Case) throws {
        let model = try DetectionModel(path: try Fixtures.require(Fixtures.path(c.weights)))
        let golden = try TensorFile(path: try Fixtures.require(Fixtures.path(c.golden)))
        let verification = try GoldenVerification(model: model, golden: golden)
        // Every layer but the head, the head's boxes and scores, then its extras: mask coefficients and
        // prototypes, or keypoints and their visibility.
        let extraRows = ["Segment": 2, "Pose": 2][model.layers.last?.module ?? ""] ?? 0
        // Then the head's per-level maps; an end-to-end head adds its one-to-one boxes, scores and maps.
        let endToEndRows = model.hasEndToEndHead ? 2 + model.strides.count : 0
        #expect(verification.rows.count == model.layers.count + 1 + extraRows + model.strides.count + endToEndRows)
        #expect(model.hasEndToEndHead == c.weights.contains("yolo26"))
        for row in verification.rows {
            #expect(row.passed, "\(c) \(row.name) \(row.shape): \(row.difference) (bound \(row.bound))")
        }
        let head = verification.rows.dropFirst(model.layers.count - 1).prefix(2 + extraRows).map { "\($0.name): \($0.difference)" }.joined(separator: "; ")
        print("golden \(c): \(head)")
    }

    /// A golden changed in one element fails on that row alone, which names the element: an
    /// intermediate layer, and the per-level maps of a detection, a segmentation and a pose head
    /// (whose maps carry the mask coefficients or keypoints after the class logits).
    @Test(arguments: [
        ("Weights/yolo11n.swyolo", "Tests/Fixtures/golden/yolo11n-bus-320x256.swyolo", "model.5", 1234, Float(0.01)),
        ("Weights/yolo11n.swyolo", "Tests/Fixtures/golden/yolo11n-bus-320x256.swyolo", "model.23.raw.0", 7, 1),
        ("Weights/yolo11n-seg.swyolo", "Tests/Fixtures/golden/yolo11n-seg-bus-160x128.swyolo", "model.23.raw.1", 170 * 10 * 8 + 3, 1),
        ("Weights/yolo11n-pose.swyolo", "Tests/Fixtures/golden/yolo11n-pose-zidane-128x160.swyolo", "model.23.raw.2", 115 * 4 * 5, 1),
    ])
    func aChangedElementFailsItsRowAtItsIndex(weights: String, golden: String, tensor: String, index: Int, change: Float) throws {
        let model = try DetectionModel(path: try Fixtures.require(Fixtures.path(weights)))
        let original = try Fixtures.require(Fixtures.path(golden))
        let entry = try #require(try TensorFile(path: original).entry(named: tensor))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: original))
        let offset = entry.fileOffset + 4 * index
        let value = Float(bitPattern: bytes[offset..<(offset + 4)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }) + change
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.replaceSubrange(offset..<(offset + 4), with: $0) }
        let changed = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString).swyolo")
        try bytes.write(to: changed)
        defer { try? FileManager.default.removeItem(at: changed) }

        let verification = try GoldenVerification(model: model, golden: try TensorFile(path: changed.path))
        #expect(verification.rows.filter { !$0.passed }.map(\.name) == [tensor])
        #expect(verification.rows.first { $0.name == tensor }?.difference.firstBadIndex == index)
    }

    /// A golden traces to the checkpoint its model was converted from, and one of another
    /// checkpoint (the segmentation model's) to that one, by the checksums both files record.
    @Test func aGoldenIsTracedToItsWeights() throws {
        let model = try DetectionModel(path: try Fixtures.require(Fixtures.path("Weights/yolo11n.swyolo")))
        let own = try TensorFile(path: try Fixtures.require(Fixtures.path("Tests/Fixtures/golden/yolo11n-bus-320x256.swyolo")))
        #expect(try GoldenProvenance(golden: own, model: model) == .sourceCheckpoint(file: "yolo11n.pt"))
        let other = try TensorFile(path: try Fixtures.require(Fixtures.path("Tests/Fixtures/golden/yolo11n-seg-bus-160x128.swyolo")))
        #expect(try GoldenProvenance(golden: other, model: model)
                == .otherWeights(file: "yolo11n-seg.pt", sha256: "cf6bc00ce0b00fb78348dcd072d067367a40cf811ab71bb73b06a023119d5b36"))
    }
}
