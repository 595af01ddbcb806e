import Foundation
import YOLOFileSystem
import SwiftYOLO
import SwiftYOLOVideo

/// How `detect` prints one image's result: a table for people, or the JSON Lines contract of
/// DESIGN.md for scripts.
enum DetectionReport {
    /// - Parameter rotations: the rotation pass of each detection, shown in a `rot` column.
    /// - Parameter saved: the picture written by `--save`, reported on a line of its own.
    static func table(image: String, result: DetectionResult, rotations: [Rotation]? = nil, saved: String? = nil) -> String {
        let t = result.timings
        var lines = (saved.map { ["saved \(DisplayText.terminal($0))"] } ?? []) + ["\(DisplayText.terminal(image))  \(result.imageWidth)×\(result.imageHeight), input \(result.inputWidth)×\(result.inputHeight): "
            + "\(result.detections.count) detection\(result.detections.count == 1 ? "" : "s") in \(format(t.total)) ms "
            + "(decode \(format(t.decode)), preprocess \(format(t.preprocess)), inference \(format(t.inference)), postprocess \(format(t.postprocess)))"]
        guard !result.detections.isEmpty else { return lines.joined(separator: "\n") }
        var table = TextTable([("class", .right), ("label", .left), ("conf", .right), ("x1", .right), ("y1", .right), ("x2", .right), ("y2", .right)]
                              + (rotations == nil ? [] : [("rot", .right)]))
        for (i, d) in result.detections.enumerated() {
            table.append([String(d.classId), DisplayText.terminal(d.label), String(format: "%.3f", d.confidence)]
                         + [d.box.x1, d.box.y1, d.box.x2, d.box.y2].map { String(format: "%.1f", $0) }
                         + (rotations.map { [String($0[i].degrees)] } ?? []))
        }
        lines.append(table.render(indent: "  "))
        return lines.joined(separator: "\n")
    }

    /// `{"image": PATH, "width": W, "height": H, "detections": [...], "timing_ms": {...}}`, keys in that
    /// order, then `"saved": PATH` with `--save`.
    /// - Parameter rotations: the rotation pass of each detection, added to it as `"rotation"`.
    static func jsonLine(image: String, result: DetectionResult, rotations: [Rotation]? = nil, saved: String? = nil) -> String {
        let detections = result.detections.enumerated().map { i, d in detectionObject(d, rotation: rotations?[i]) }
        let t = result.timings
        let timings = [("decode", t.decode), ("preprocess", t.preprocess), ("inference", t.inference), ("postprocess", t.postprocess), ("total", t.total)]
            .map { "\"\($0)\": \(format($1))" }.joined(separator: ", ")
        return "{\"image\": \(string(image)), \"width\": \(result.imageWidth), \"height\": \(result.imageHeight), "
            + "\"detections\": [\(detections.joined(separator: ", "))], \"timing_ms\": {\(timings)}"
            + (saved.map { ", \"saved\": \(string($0))" } ?? "") + "}"
    }

    /// `{"class": ID, "label": NAME, "confidence": C, "box": [X1, Y1, X2, Y2]}`, then `"mask"` (COCO
    /// compressed RLE) or `"keypoints"` for segmentation and pose models, then `"track"` and
    /// `"rotation"` when given.
    static func detectionObject(_ d: Detection, rotation: Rotation? = nil, track: Int? = nil) -> String {
        "{\"class\": \(d.classId), \"label\": \(string(d.label)), \"confidence\": \(number(d.confidence)), "
            + "\"box\": [\([d.box.x1, d.box.y1, d.box.x2, d.box.y2].map(number).joined(separator: ", "))]"
            + (d.mask.map { ", \"mask\": {\"size\": [\($0.imageHeight), \($0.imageWidth)], \"counts\": \(string($0.cocoCounts))}" } ?? "")
            + (d.keypoints.map { ", \"keypoints\": [" + $0.map { "[\(number($0.x)), \(number($0.y)), \(number($0.confidence))]" }.joined(separator: ", ") + "]" } ?? "")
            + (d.face.map { ", \"face\": {\"box\": [\([$0.box.x1, $0.box.y1, $0.box.x2, $0.box.y2].map(number).joined(separator: ", "))], \"frontal\": \($0.frontal)}" } ?? "")
            + (track.map { ", \"track\": \($0)" } ?? "") + (rotation.map { ", \"rotation\": \($0.degrees)" } ?? "") + "}"
    }

    /// The flat array `[class, score, xmin, xmax, ymin, ymax, …]` (`--format array`).
    static func arrayLine(_ detections: [Detection]) -> String {
        "[" + FlatDetections.flatten(detections).map(number).joined(separator: ", ") + "]"
    }

    /// `{"image": PATH, "error": MESSAGE}`.
    static func jsonErrorLine(image: String, error: any Error) -> String {
        "{\"image\": \(string(image)), \"error\": \(string("\(error)"))}"
    }

    /// A JSON string literal; names that are not UTF-8 keep their bytes (`DisplayText.jsonString`).
    static func string(_ text: String) -> String { DisplayText.jsonString(text) }

    /// The shortest decimal that reads back as the same Float.
    static func number(_ value: Float) -> String {
        value.isFinite ? "\(value)" : "null"
    }

    static func format(_ milliseconds: Double) -> String { String(format: "%.2f", milliseconds) }
    static func format(_ duration: Duration) -> String { format(duration.milliseconds) }
}
