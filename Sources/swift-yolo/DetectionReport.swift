import Foundation
import SwiftYOLO

/// How `detect` prints one image's result: a table for people, or the JSON Lines contract of
/// DESIGN.md for scripts.
enum DetectionReport {
    static func table(image: String, result: DetectionResult) -> String {
        let t = result.timings
        var lines = ["\(image)  \(result.imageWidth)×\(result.imageHeight), input \(result.inputWidth)×\(result.inputHeight): "
            + "\(result.detections.count) detection\(result.detections.count == 1 ? "" : "s") in \(format(t.total)) ms "
            + "(decode \(format(t.decode)), preprocess \(format(t.preprocess)), inference \(format(t.inference)), postprocess \(format(t.postprocess)))"]
        guard !result.detections.isEmpty else { return lines[0] }
        var table = TextTable([("class", .right), ("label", .left), ("conf", .right), ("x1", .right), ("y1", .right), ("x2", .right), ("y2", .right)])
        for d in result.detections {
            table.append([String(d.classId), d.label, String(format: "%.3f", d.confidence)]
                         + [d.box.x1, d.box.y1, d.box.x2, d.box.y2].map { String(format: "%.1f", $0) })
        }
        lines.append(table.render(indent: "  "))
        return lines.joined(separator: "\n")
    }

    /// `{"image": PATH, "width": W, "height": H, "detections": [...], "timing_ms": {...}}`, keys in that order.
    static func jsonLine(image: String, result: DetectionResult) -> String {
        let detections = result.detections.map { d in
            "{\"class\": \(d.classId), \"label\": \(string(d.label)), \"confidence\": \(number(d.confidence)), "
                + "\"box\": [\([d.box.x1, d.box.y1, d.box.x2, d.box.y2].map(number).joined(separator: ", "))]}"
        }
        let t = result.timings
        let timings = [("decode", t.decode), ("preprocess", t.preprocess), ("inference", t.inference), ("postprocess", t.postprocess), ("total", t.total)]
            .map { "\"\($0)\": \(format($1))" }.joined(separator: ", ")
        return "{\"image\": \(string(image)), \"width\": \(result.imageWidth), \"height\": \(result.imageHeight), "
            + "\"detections\": [\(detections.joined(separator: ", "))], \"timing_ms\": {\(timings)}}"
    }

    /// `{"image": PATH, "error": MESSAGE}`.
    static func jsonErrorLine(image: String, error: any Error) -> String {
        "{\"image\": \(string(image)), \"error\": \(string("\(error)"))}"
    }

    /// A JSON string literal.
    private static func string(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return (try? String(decoding: encoder.encode(text), as: UTF8.self)) ?? "\"\""
    }

    /// The shortest decimal that reads back as the same Float.
    private static func number(_ value: Float) -> String {
        value.isFinite ? "\(value)" : "null"
    }

    private static func format(_ milliseconds: Double) -> String { String(format: "%.2f", milliseconds) }
}
