import FoundationEssentials
import Glibc
import SwiftYOLO
import YOLOFileSystem
import YOLOPlatform
import YOLORecipes

/// The JSON of one image's result, as `detect --json` prints it (one line) and `POST /v1/detect`
/// answers it: the contract of DESIGN.md, keys in a fixed order.
package enum ResultJSON {
    /// `{"image": PATH, "width": W, "height": H, "detections": [...], "timing_ms": {...}}`, keys in that
    /// order, then `"saved": PATH` when a picture was written and `"masks": PATH` when an instance map
    /// was; `"image": null` when there is no name.
    /// - Parameter rotations: the rotation pass of each detection, added to it as `"rotation"`.
    package static func line(image: String?, result: DetectionResult, rotations: [Rotation]? = nil, saved: String? = nil,
                             masks: String? = nil) -> String {
        let detections = result.detections.enumerated().map { i, d in detectionObject(d, rotation: rotations?[i]) }
        return "{\"image\": \(image.map(string) ?? "null"), \"width\": \(result.imageWidth), \"height\": \(result.imageHeight), "
            + "\"detections\": [\(detections.joined(separator: ", "))], \"timing_ms\": \(timings(result.timings))"
            + (saved.map { ", \"saved\": \(string($0))" } ?? "") + (masks.map { ", \"masks\": \(string($0))" } ?? "") + "}"
    }

    /// `{"decode": MS, "preprocess": MS, "inference": MS, "postprocess": MS, "total": MS}`.
    package static func timings(_ t: StageTimings) -> String {
        "{" + [("decode", t.decode), ("preprocess", t.preprocess), ("inference", t.inference), ("postprocess", t.postprocess), ("total", t.total)]
            .map { "\"\($0)\": \(milliseconds($1))" }.joined(separator: ", ") + "}"
    }

    /// `{"class": ID, "label": NAME, "confidence": C, "box": [X1, Y1, X2, Y2]}`, then `"mask"` (COCO
    /// compressed RLE) or `"keypoints"` for segmentation and pose models, then `"face"`, `"track"` and
    /// `"rotation"` when given.
    package static func detectionObject(_ d: Detection, rotation: Rotation? = nil, track: Int? = nil) -> String {
        "{\"class\": \(d.classId), \"label\": \(string(d.label)), \"confidence\": \(number(d.confidence)), "
            + "\"box\": [\([d.box.x1, d.box.y1, d.box.x2, d.box.y2].map(number).joined(separator: ", "))]"
            + (d.mask.map { ", \"mask\": {\"size\": [\($0.imageHeight), \($0.imageWidth)], \"counts\": \(string($0.cocoCounts))}" } ?? "")
            + (d.keypoints.map { ", \"keypoints\": [" + $0.map { "[\(number($0.x)), \(number($0.y)), \(number($0.confidence))]" }.joined(separator: ", ") + "]" } ?? "")
            + (d.face.map { ", \"face\": {\"box\": [\([$0.box.x1, $0.box.y1, $0.box.x2, $0.box.y2].map(number).joined(separator: ", "))], \"frontal\": \($0.frontal)}" } ?? "")
            + (track.map { ", \"track\": \($0)" } ?? "") + (rotation.map { ", \"rotation\": \($0.degrees)" } ?? "") + "}"
    }

    /// `{"image": PATH, "error": MESSAGE}` (`"image": null` when there is no name).
    package static func errorLine(image: String?, error: any Error) -> String {
        "{\"image\": \(image.map(string) ?? "null"), \"error\": \(string("\(error)"))}"
    }

    /// A JSON string literal; names that are not UTF-8 keep their bytes (`DisplayText.jsonString`).
    package static func string(_ text: String) -> String { DisplayText.jsonString(text) }

    /// The shortest decimal that reads back as the same Float; `null` for a non-finite value.
    package static func number(_ value: Float) -> String {
        value.isFinite ? "\(value)" : "null"
    }

    /// Milliseconds with two decimals.
    package static func milliseconds(_ value: Double) -> String { String(cFormat: "%.2f", value) }
    package static func milliseconds(_ duration: Duration) -> String { milliseconds(duration.milliseconds) }
}
