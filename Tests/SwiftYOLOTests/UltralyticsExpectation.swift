import Foundation
import SwiftYOLO

/// Ultralytics' own output for one checkpoint and set of arguments over a list of images, as
/// `tools/expected_detections.py` and `tools/expected_tasks.py` write it (`Tests/Fixtures/detections`,
/// `detections-yolo26` and `tasks`); the parity suites hold SwiftYOLO's results against it.
struct UltralyticsExpectation: Decodable {
    /// `predict`'s arguments; the task files leave out those they keep at Ultralytics' defaults.
    struct Arguments: Decodable {
        let conf: Double
        let iou: Double
        let imgsz: Int
        let agnostic: Bool?
        let max_det: Int?
        let classes: [Int]?
        /// YOLO26's one-to-one head without NMS (Ultralytics' `nms=False`).
        let end2end: Bool?

        /// The same arguments as SwiftYOLO's options.
        var options: DetectionOptions {
            var options = DetectionOptions()
            options.confidenceThreshold = conf
            options.iouThreshold = iou
            options.imageSize = imgsz
            if let agnostic { options.agnostic = agnostic }
            if let max_det { options.maxDetections = max_det }
            options.classes = classes.map(Set.init)
            options.endToEnd = end2end ?? false
            return options
        }
    }

    /// One image: its size, the model's input size and what Ultralytics found.
    struct Result: Decodable {
        let image: String
        let width: Int
        let height: Int
        let input_shape: [Int]
        let detections: [Detection]
    }

    /// `segment` or `pose` in the task files.
    let task: String?
    /// The checkpoint's file name and hash, in YOLO26's files.
    let weights: [String: String]?
    let arguments: Arguments
    let results: [Result]

    /// The file at `relative` in the repository.
    static func load(_ relative: String) throws -> UltralyticsExpectation {
        try JSONDecoder().decode(Self.self, from: Data(contentsOf: URL(fileURLWithPath: Fixtures.path(relative))))
    }

    /// The `.json` files of `directory` in the repository, sorted.
    static func files(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: Fixtures.path(directory))) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }
}

/// One line of `swift-yolo detect --json`, as far as the parity suites read it.
struct DetectJSONLine: Decodable {
    let width: Int
    let height: Int
    let detections: [Detection]

    init(_ line: String) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(line.utf8))
    }
}
