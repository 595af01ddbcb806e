import FoundationEssentials
import Glibc
import SwiftYOLO
import SwiftYOLOVideo
import YOLOFileSystem
import YOLOPlatform
import YOLOServing

/// How `detect` prints one image's result for people (a table) and as a flat array; the JSON line
/// is `ResultJSON.line`.
enum DetectionReport {
    /// - Parameter rotations: the rotation pass of each detection, shown in a `rot` column.
    /// - Parameter saved: the picture written by `--save`, reported on a line of its own.
    static func table(image: String, result: DetectionResult, rotations: [Rotation]? = nil, saved: String? = nil) -> String {
        let t = result.timings
        var lines = (saved.map { ["saved \(DisplayText.terminal($0))"] } ?? []) + ["\(DisplayText.terminal(image))  \(result.imageWidth)×\(result.imageHeight), input \(result.inputWidth)×\(result.inputHeight): "
            + "\(result.detections.count) detection\(result.detections.count == 1 ? "" : "s") in \(ResultJSON.milliseconds(t.total)) ms "
            + "(decode \(ResultJSON.milliseconds(t.decode)), preprocess \(ResultJSON.milliseconds(t.preprocess)), inference \(ResultJSON.milliseconds(t.inference)), postprocess \(ResultJSON.milliseconds(t.postprocess)))"]
        guard !result.detections.isEmpty else { return lines.joined(separator: "\n") }
        var table = TextTable([("class", .right), ("label", .left), ("conf", .right), ("x1", .right), ("y1", .right), ("x2", .right), ("y2", .right)]
                              + (rotations == nil ? [] : [("rot", .right)]))
        for (i, d) in result.detections.enumerated() {
            table.append([String(d.classId), DisplayText.terminal(d.label), String(cFormat: "%.3f", d.confidence)]
                         + [d.box.x1, d.box.y1, d.box.x2, d.box.y2].map { String(cFormat: "%.1f", $0) }
                         + (rotations.map { [String($0[i].degrees)] } ?? []))
        }
        lines.append(table.render(indent: "  "))
        return lines.joined(separator: "\n")
    }

    /// The flat array `[class, score, xmin, xmax, ymin, ymax, …]` (`--format array`).
    static func arrayLine(_ detections: [Detection]) -> String {
        "[" + FlatDetections.flatten(detections).map(ResultJSON.number).joined(separator: ", ") + "]"
    }
}
