// preprocess-bench RAW WIDTH HEIGHT [ITERATIONS]: `Preprocessor.canvas(for:)` + `writeCHW` at the
// predict defaults (imgsz 640, letterbox) on one decoded image, ITERATIONS times (default 200), into
// one input buffer allocated up front (steady state: a one-shot `detect` also pays first-touch page
// faults); prints the median and minimum in ms and a hash of the model input (equal hashes: equal
// floats). Compiled by measure.sh together with YOLOImage's preprocessing sources.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 4, let data = FileManager.default.contents(atPath: arguments[1]),
      let width = Int(arguments[2]), let height = Int(arguments[3]) else {
    fatalError("usage: preprocess-bench RAW WIDTH HEIGHT [ITERATIONS]")
}
let iterations = arguments.count > 4 ? Int(arguments[4])! : 200
let image = RGBImage(width: width, height: height, pixels: [UInt8](data))
let preprocessor = Preprocessor()
let g = preprocessor.geometry(width: width, height: height)
let input = UnsafeMutableBufferPointer<Float>.allocate(capacity: 3 * g.inputWidth * g.inputHeight)
var samples: [Double] = []
for _ in 0..<iterations {
    let start = DispatchTime.now().uptimeNanoseconds
    let (canvas, _) = preprocessor.canvas(for: image)
    Preprocessor.writeCHW(canvas, into: input)
    samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}
var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a over the floats' bits
for v in input { hash = (hash ^ UInt64(v.bitPattern)) &* 0x100_0000_01b3 }
samples.sort()
print(String(format: "median %.3f ms  min %.3f ms  (%d iterations, %dx%d -> %dx%d, input hash %016llx)",
             samples[samples.count / 2], samples[0], iterations, width, height, g.inputWidth, g.inputHeight, hash))
