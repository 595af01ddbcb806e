import Foundation
import Testing
@testable import SwiftYOLO
import YOLODetect
import YOLOImage
import YOLOModel

/// The cost of masks against the forward pass they follow: assembling ten objects' masks at
/// original-image size (`retina_masks=True`) must take under 10% of the segmentation model's forward
/// pass on the same image. Medians of runs taken in alternation, so both see the same machine load.
@Suite struct MaskAssemblyTimingTests {
    @Test func tenMasksCostUnderTenthOfTheForwardPass() throws {
        let weights = Fixtures.path("Weights/yolo11n-seg.swyolo")
        guard FileManager.default.fileExists(atPath: weights) else { throw Fixtures.MissingFixture(path: weights) }
        let model = try DetectionModel(path: weights)
        let image = try ImageDecoder().decode(contentsOf: Fixtures.path("../shared/images/bus.jpg"))
        let preprocessor = Preprocessor(options: PreprocessOptions(imageSize: 640, stride: model.maximumStride))
        let (canvas, geometry) = preprocessor.canvas(for: image)
        let input = Tensor(uninitializedShape: [1, 3, canvas.height, canvas.width])
        Preprocessor.writeCHW(canvas, into: input.buffer)
        var output = try model.run(input)
        // conf 0.01 gives more than ten candidates on bus.jpg; the eleven best are timed (a detection
        // whose mask is empty would be dropped, as Ultralytics drops it; at least ten must remain).
        let postprocessing = TaskPostprocessing(postprocessor: Postprocessor(options: PostprocessOptions(confidenceThreshold: 0.01, maxDetections: 11)),
                                                classCount: model.classCount, extras: model.headExtras, geometry: geometry)
        var forward: [Double] = [], masks: [Double] = []
        var objects = 0, pixels = 0
        for _ in 0..<7 {
            let clock = ContinuousClock()
            var start = clock.now
            output = try model.run(input)
            forward.append((clock.now - start).milliseconds)
            start = clock.now
            let detections = try postprocessing.detections(output)
            masks.append((clock.now - start).milliseconds)
            objects = detections.count
            pixels = detections.reduce(0) { $0 + ($1.mask.map { $0.regionWidth * $0.regionHeight } ?? 0) }
        }
        let forwardMedian = forward.sorted()[3], masksMedian = masks.sorted()[3]
        print("mask assembly: \(objects) objects, \(pixels) box pixels of an \(image.width)×\(image.height) image: median "
              + String(format: "%.2f ms (NMS included) vs forward pass %.1f ms at %d×%d: %.1f%%", masksMedian, forwardMedian,
                       canvas.width, canvas.height, 100 * masksMedian / forwardMedian))
        #expect(objects >= 10)
        #expect(masksMedian < 0.1 * forwardMedian, "masks \(masksMedian) ms, forward pass \(forwardMedian) ms")
    }
}
