// Detects in each image named on the command line with one detector, as a user's service would,
// and prints one line per image: its detections and the time the whole call took.
//
//   consumer MODEL IMAGE...
import Foundation
import SwiftYOLO

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2, let modelPath = arguments.first else {
    FileHandle.standardError.write(Data("usage: consumer MODEL IMAGE...\n".utf8))
    exit(64)
}
do {
    let detector = try Detector(modelPath: modelPath)
    for image in arguments.dropFirst() {
        let start = ContinuousClock.now
        let detections = try detector.detect(imageAt: image)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let found = detections.map { "\($0.label) \(String(format: "%.3f", $0.confidence))" }.joined(separator: ", ")
        print("\(image): \(detections.count) detections in \(String(format: "%.2f", milliseconds)) ms: \(found)")
    }
} catch {
    FileHandle.standardError.write(Data("consumer: \(error)\n".utf8))
    exit(1)
}
