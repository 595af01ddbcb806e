// DETECTIONS consecutive detections of mixed-size images with one Detector, printing resident memory
// every EVERY detections, then its growth after the first WARMUP detections.
//
//   soak [--detections 5000] [--every 100] [--warmup 500] [--model PATH] IMAGE...
//
// Each source image is decoded and resized (OpenCV-exact bilinear) to a spread of sizes from 64x48
// to 3000x2000 and written as PNG into a temporary folder, beside the source files themselves; the
// run cycles through them all in a fixed shuffled order, so every detection decodes a file. Exit
// status 1 if resident memory grows by 2% or more after the warm-up.
import Foundation
import ReliabilitySupport
import SwiftYOLO
import YOLOImage

let arguments = Arguments()
let detectionCount = arguments.int("detections", default: 5000)
let every = arguments.int("every", default: 100)
let warmup = arguments.int("warmup", default: 500)
let sources = arguments.positional
guard !sources.isEmpty else { fail("usage: soak [--detections 5000] [--every 100] [--warmup 500] [--model PATH] IMAGE...") }

let detector: Detector
do {
    detector = try Detector(modelPath: modelPath(arguments))
} catch {
    fail("\(error)")
}

let folder = NSTemporaryDirectory() + "swift-yolo-soak-\(getpid())"
try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }
let sizes = [(64, 48), (200, 150), (333, 251), (480, 640), (640, 480), (810, 1080), (1280, 720), (1920, 1080), (3000, 2000)]
var files = sources
for (index, source) in sources.enumerated() {
    guard let image = try? ImageDecoder().decode(contentsOf: source) else { fail("cannot decode \(source)") }
    for (width, height) in sizes where index % 2 == 0 || width <= 1920 {
        let path = "\(folder)/\(index)-\(width)x\(height).png"
        do {
            try BilinearResize.resize(image, width: width, height: height).writePNG(to: path)
        } catch {
            fail("\(error)")
        }
        files.append(path)
    }
}
// A fixed shuffle (SplitMix64), so consecutive detections change size.
var state: UInt64 = 0x5EED
var order = Array(files.indices)
for i in stride(from: order.count - 1, to: 0, by: -1) {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    order.swapAt(i, Int((z ^ (z >> 31)) % UInt64(i + 1)))
}

print("model \(modelPath(arguments)), \(files.count) images (\(sources.count) sources x \(sizes.count) sizes), \(detectionCount) detections")
print("detections  resident MiB  seconds")
print(String(format: "%10d  %12.1f  %7.1f", 0, residentMiB(), 0.0))
let start = now()
var atWarmup = 0.0, peakAfterWarmup = 0.0, boxes = 0
for k in 1...detectionCount {
    let file = files[order[(k - 1) % order.count]]
    do {
        boxes += try detector.detect(imageAt: file).count
    } catch {
        fail("\(file): \(error)")
    }
    if k == warmup { atWarmup = residentMiB() }
    if k > warmup { peakAfterWarmup = max(peakAfterWarmup, residentMiB()) }
    if k % every == 0 { print(String(format: "%10d  %12.1f  %7.1f", k, residentMiB(), now() - start)) }
}
let final = residentMiB()
let growth = (final - atWarmup) / atWarmup * 100
let peakGrowth = (peakAfterWarmup - atWarmup) / atWarmup * 100
print(String(format: "%d detections (%d boxes) in %.0f s", detectionCount, boxes, now() - start))
print(String(format: "resident after %d (warm-up): %.1f MiB; at the end: %.1f MiB (%+.2f%%); peak after warm-up: %.1f MiB (%+.2f%%)",
             warmup, atWarmup, final, growth, peakAfterWarmup, peakGrowth))
print(growth < 2 ? "PASS: growth after warm-up under 2%" : "FAIL: resident memory grew by 2% or more after warm-up")
exit(growth < 2 ? 0 : 1)
