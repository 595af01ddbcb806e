// A user's program on the video API: it knows only `import SwiftYOLOVideo`.
//
//   video-recipes MODEL DIRECTORY     runs the pipeline of docs/video.md over the directory's images
//                                     as frames (tracking, settle events, a 90° rotation pass), then
//                                     the recipes on their own on the first image
import Foundation
import SwiftYOLOVideo

func require<T>(_ value: T?) throws -> T {
    guard let value else { throw DetectorError.invalidOptions(reason: "the directory has no images") }
    return value
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: video-recipes MODEL DIRECTORY\n".utf8))
    exit(64)
}
do {
    let detector = try Detector(modelPath: arguments[1])
    let source = try ImageDirectorySource(directory: arguments[2], frameRate: 10)
    let options = VideoPipelineOptions(every: 1, tracking: TrackerOptions(ema: 0.4, minHits: 2, window: 5),
                                       settle: SettleOptions(frames: 2, iou: 0.85))
    let pipeline = try VideoPipeline(source: source, detector: ModelFrameDetector(detector: detector, rotations: [.degrees0, .degrees90]),
                                     options: options)
    try pipeline.run { event in
        switch event {
        case .frame(let report):
            print("frame \(report.frame):", report.detections.map { "\($0.track ?? 0) \($0.detection.label) \($0.rotation.degrees)" })
        case .settled(let frame, _, let objects):
            print("settled at \(frame):", objects.map(\.detection.label))
        case .frameFailed(let frame, _, _, let message):
            print("frame \(frame) failed: \(message)")
        }
    }
    let counts = pipeline.counts
    print("read \(counts.read), processed \(counts.processed), skipped \(counts.skipped), dropped \(counts.dropped)")

    // The recipes on their own, on detections from anywhere.
    let first = try require(source.files.first)
    let passes = try detector.run(imageAt: first, rotations: [.degrees0, .degrees90])
    var tracker = ObjectTracker(options: TrackerOptions(minHits: 1))
    var settle = SettleDetector(options: SettleOptions(frames: 2))
    let detections = passes.detections.map(\.detection)
    let tracked = tracker.update(detections)
    _ = settle.update(detections)
    let order = settle.update(detections)
    let flat: [Float] = FlatDetections.flatten(detections)
    print("recipes: \(tracked.count) tracked, settled \(order != nil), \(flat.count / FlatDetections.stride) flat detections")
} catch {
    FileHandle.standardError.write(Data("video-recipes: \(error.localizedDescription)\n".utf8))
    exit(1)
}
