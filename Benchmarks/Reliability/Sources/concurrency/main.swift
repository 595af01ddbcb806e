// One Detector shared by THREADS threads running DETECTIONS detections over the given images
// (detection k is image k mod count), compared one by one with the same DETECTIONS detections run on
// one thread: every result must be identical (same classes, confidences and boxes, bit for bit).
//
//   concurrency [--threads 8] [--detections 2000] [--model PATH] [--imgsz 640] IMAGE...
//
// Exit status 0 if every result matches, 1 otherwise. Benchmarks/concurrency.sh runs it.
import Foundation
import ReliabilitySupport
import SwiftYOLO

let arguments = Arguments()
let threadCount = arguments.int("threads", default: 8)
let detectionCount = arguments.int("detections", default: 2000)
let images = arguments.positional
guard !images.isEmpty else { fail("usage: concurrency [--threads 8] [--detections 2000] [--model PATH] [--imgsz 640] IMAGE...") }
var options = DetectionOptions()
options.imageSize = arguments.int("imgsz", default: 640)
let detector: Detector
do {
    detector = try Detector(modelPath: modelPath(arguments), options: options)
} catch {
    fail("\(error)")
}

print("model \(modelPath(arguments)), imgsz \(options.imageSize), \(images.count) images, \(detectionCount) detections")

// The single-threaded run.
var start = now()
var serial: [[Detection]] = []
serial.reserveCapacity(detectionCount)
for k in 0..<detectionCount {
    do {
        serial.append(try detector.detect(imageAt: images[k % images.count]))
    } catch {
        fail("\(images[k % images.count]): \(error)")
    }
}
let serialSeconds = now() - start
print(String(format: "1 thread:   %d detections in %.1f s (%.1f ms each, %.2f per second)",
             detectionCount, serialSeconds, serialSeconds * 1000 / Double(detectionCount), Double(detectionCount) / serialSeconds))

// The same detections on THREADS threads, taking the next index from a shared counter.
final class Shared: @unchecked Sendable {
    let lock = NSLock()
    var next = 0
    var results: [[Detection]?]
    var errors: [String] = []
    init(count: Int) { results = Array(repeating: nil, count: count) }
}
let shared = Shared(count: detectionCount)
let group = DispatchGroup()
start = now()
for _ in 0..<threadCount {
    group.enter()
    Thread {
        defer { group.leave() }
        while true {
            let k: Int = shared.lock.withLock {
                defer { shared.next += 1 }
                return shared.next
            }
            guard k < detectionCount else { return }
            let image = images[k % images.count]
            do {
                let detections = try detector.detect(imageAt: image)
                shared.lock.withLock { shared.results[k] = detections }
            } catch {
                shared.lock.withLock { shared.errors.append("\(image): \(error)") }
            }
        }
    }.start()
}
group.wait()
let parallelSeconds = now() - start
print(String(format: "%d threads:  %d detections in %.1f s (%.2f per second)",
             threadCount, detectionCount, parallelSeconds, Double(detectionCount) / parallelSeconds))

var mismatches = 0
for k in 0..<detectionCount where shared.results[k] != serial[k] {
    mismatches += 1
    if mismatches <= 5 { print("MISMATCH at detection \(k) (\(images[k % images.count])): \(shared.results[k]?.count ?? -1) vs \(serial[k].count) detections") }
}
let boxes = serial.reduce(0) { $0 + $1.count }
print("compared \(detectionCount) results (\(boxes) boxes): \(mismatches) differ, \(shared.errors.count) errors")
for error in shared.errors.prefix(5) { print("ERROR \(error)") }
print(mismatches == 0 && shared.errors.isEmpty ? "PASS: identical to the single-threaded run" : "FAIL")
exit(mismatches == 0 && shared.errors.isEmpty ? 0 : 1)
