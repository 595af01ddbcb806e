import FoundationEssentials
import Glibc
import SwiftYOLOVideo
import YOLOPlatform
import YOLOServing

/// How `video` prints its JSON Lines: one object per processed frame, settle events, frame
/// errors, and a closing summary.
enum VideoReport {
    /// `{"frame": N, "time_s": T, "detections": [...], ...}`, or `"array": [...]` for `--format array`;
    /// `"saved": PATH` last where the frame's picture was written.
    static func frameLine(_ report: FrameReport, array: Bool, showsRotation: Bool, realtime: Bool, saved: String? = nil) -> String {
        var fields = ["\"frame\": \(report.frame)", "\"time_s\": \(seconds(report.time))"]
        if let file = report.file { fields.append("\"image\": \(ResultJSON.string(file))") }
        fields.append(detectionsField(report.detections, array: array, showsRotation: showsRotation))
        if realtime { fields.append("\"dropped\": \(report.dropped)") }
        fields.append("\"timing_ms\": " + ResultJSON.timings(report.timings))
        if let saved { fields.append("\"saved\": \(ResultJSON.string(saved))") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// `{"event": "settled", "frame": N, "time_s": T, "detections": [...]}` (objects left to right).
    static func settledLine(frame: Int, time: Double, detections: [StreamDetection], array: Bool, showsRotation: Bool) -> String {
        "{\"event\": \"settled\", \"frame\": \(frame), \"time_s\": \(seconds(time)), "
            + detectionsField(detections, array: array, showsRotation: showsRotation) + "}"
    }

    /// `{"frame": N, "time_s": T, "image": FILE, "error": MESSAGE}` for a frame that failed.
    static func frameErrorLine(frame: Int, time: Double, file: String?, message: String) -> String {
        "{\"frame\": \(frame), \"time_s\": \(seconds(time)), "
            + (file.map { "\"image\": \(ResultJSON.string($0)), " } ?? "") + "\"error\": \(ResultJSON.string(message))}"
    }

    /// `{"event": "error", "source": NAME, "error": MESSAGE}` for a stream that cannot go on.
    static func streamErrorLine(source: String, message: String) -> String {
        "{\"event\": \"error\", \"source\": \(ResultJSON.string(source)), \"error\": \(ResultJSON.string(message))}"
    }

    /// `{"event": "end", "source": NAME, "frames": R, "processed": P, "skipped": S, "dropped": D, "failed": F, "seconds": W, "fps": P/W}`.
    static func endLine(source: String, counts: SamplingCounts, failed: Int, wallSeconds: Double) -> String {
        let fps = wallSeconds > 0 ? Double(counts.processed) / wallSeconds : 0
        return "{\"event\": \"end\", \"source\": \(ResultJSON.string(source)), \"frames\": \(counts.read), "
            + "\"processed\": \(counts.processed), \"skipped\": \(counts.skipped), \"dropped\": \(counts.dropped), "
            + "\"failed\": \(failed), \"seconds\": \(String(cFormat: "%.3f", wallSeconds)), \"fps\": \(String(cFormat: "%.2f", fps))}"
    }

    private static func detectionsField(_ detections: [StreamDetection], array: Bool, showsRotation: Bool) -> String {
        if array { return "\"array\": " + DetectionReport.arrayLine(detections.map(\.detection)) }
        let objects = detections.map {
            ResultJSON.detectionObject($0.detection, rotation: showsRotation ? $0.rotation : nil, track: $0.track)
        }
        return "\"detections\": [" + objects.joined(separator: ", ") + "]"
    }

    /// Seconds with microsecond precision, trailing zeros trimmed (`0.1`, `1.033367`).
    private static func seconds(_ value: Double) -> String {
        var text = String(cFormat: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
