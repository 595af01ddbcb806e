// What masks cost beside the forward pass they follow (`make bench-masks`): YOLO11n-seg on an image,
// the forward pass and the post-processing that assembles every kept object's mask at original-image
// size (Ultralytics' retina_masks=True), timed in alternation so both see the same machine load.
//
//   mask-assembly [--model Weights/yolo11n-seg.swyolo] [--image ../shared/images/bus.jpg]
//                 [--objects 11] [--runs 15] [--threads N]
//
// `--objects` keeps that many candidates at confidence 0.01 (on bus.jpg all eleven have a mask; a
// detection whose mask is empty would be dropped, as Ultralytics drops it). Prints the medians and
// their ratio.
import Foundation
import SwiftYOLO
import YOLODetect
import YOLOImage
import YOLOKernels
import YOLOModel

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("mask-assembly: \(message)\n".utf8))
    exit(2)
}

var options = ["--model": "Weights/yolo11n-seg.swyolo", "--image": "../shared/images/bus.jpg",
               "--objects": "11", "--runs": "15", "--threads": "0"]
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
    guard options[name] != nil, let value = arguments.popFirst() else {
        fail("usage: mask-assembly [--model PATH] [--image PATH] [--objects N] [--runs N] [--threads N]")
    }
    options[name] = value
}
guard let objects = Int(options["--objects"] ?? ""), objects > 0, let runs = Int(options["--runs"] ?? ""), runs > 0,
      let threads = Int(options["--threads"] ?? ""), threads >= 0, let modelPath = options["--model"],
      let imagePath = options["--image"] else { fail("--objects, --runs need positive counts, --threads 0 or more") }
if threads > 0 { ComputeThreads.set(threads) }

do {
    let model = try DetectionModel(path: modelPath)
    guard case .maskCoefficients = model.headExtras else { fail("\(modelPath) is not a segmentation model") }
    let image = try ImageDecoder().decode(contentsOf: imagePath)
    let preprocessor = Preprocessor(options: PreprocessOptions(imageSize: 640, stride: model.maximumStride))
    let (canvas, geometry) = preprocessor.canvas(for: image)
    let input = Tensor(uninitializedShape: [1, 3, canvas.height, canvas.width])
    Preprocessor.writeCHW(canvas, into: input.buffer)
    let postprocessing = TaskPostprocessing(
        postprocessor: Postprocessor(options: PostprocessOptions(confidenceThreshold: 0.01, maxDetections: objects)),
        classCount: model.classCount, extras: model.headExtras, geometry: geometry)
    var output = try model.run(input)  // warm-up
    _ = try postprocessing.detections(output)
    var forward: [Double] = [], masks: [Double] = []
    var kept = 0, boxPixels = 0
    let clock = ContinuousClock()
    for _ in 0..<runs {
        var start = clock.now
        output = try model.run(input)
        forward.append((clock.now - start).milliseconds)
        start = clock.now
        let detections = try postprocessing.detections(output)
        masks.append((clock.now - start).milliseconds)
        kept = detections.count
        boxPixels = detections.reduce(0) { $0 + ($1.mask.map { $0.regionWidth * $0.regionHeight } ?? 0) }
    }
    let forwardMedian = forward.sorted()[runs / 2], masksMedian = masks.sorted()[runs / 2]
    print("\(kept) masks (\(boxPixels) box pixels) of a \(image.width)×\(image.height) image, \(runs) runs, "
          + "\(threads > 0 ? "\(threads)" : "all") threads: post-processing with masks median "
          + String(format: "%.2f ms, forward pass %.1f ms at %d×%d: %.1f%%", masksMedian, forwardMedian,
                   canvas.width, canvas.height, 100 * masksMedian / forwardMedian))
} catch {
    fail("\(error)")
}
