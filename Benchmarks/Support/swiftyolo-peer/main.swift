// A persistent SwiftYOLO worker for Benchmarks/peers.py: loads the model once, then answers one
// command per line on stdin with one JSON line on stdout, so that SwiftYOLO is timed exactly like
// the Python peers (forward pass only, model loaded and warm, same input, same threads).
//
//   swiftyolo-peer --model Weights/yolo11n.swyolo --input input.f32 --shape 1,3,640,640 --threads 2 [--end2end 1]
//   run K        K forward passes      -> {"ms": [..K times..], "cpu_ms": process CPU time over them}
//   dump PATH    one pass, head output written to PATH as raw float32 -> {"shape": [1, 84, 8400]}
//   quit
//
// The forward pass is the same call `swift-yolo bench` times: `DetectionModel.callAsFunction` from
// the preprocessed input tensor to the head output. With `--end2end 1` (YOLO26) it runs the one-to-one
// head and its top-k selection (k = 300, no confidence floor), as Ultralytics' ONNX export of an
// end-to-end model does in its graph: the output is `[1, 300, 6]` rows of x1, y1, x2, y2, score, class.

import Foundation
import YOLODetect
import YOLOKernels
import YOLOModel

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("swiftyolo-peer: \(message)\n".utf8))
    exit(2)
}

func reply(_ object: [String: Any]) {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { fail("cannot encode reply") }
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
    guard name.hasPrefix("--"), let value = arguments.popFirst() else { fail("usage: --model PATH --input FILE --shape 1,3,H,W --threads N") }
    options[String(name.dropFirst(2))] = value
}
guard let modelPath = options["model"], let inputPath = options["input"], let shapeText = options["shape"] else {
    fail("usage: --model PATH --input FILE --shape 1,3,H,W --threads N")
}
let shape = shapeText.split(separator: ",").compactMap { Int($0) }
guard shape.count == 4 else { fail("--shape must be 1,3,H,W") }
let threads = Int(options["threads"] ?? "") ?? ProcessInfo.processInfo.activeProcessorCount
ComputeThreads.set(threads)

let clock = ContinuousClock()
func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// User + system CPU time of the whole process (every thread), for the CPU ÷ wall check.
func processCPUMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
    return ms(usage.ru_utime) + ms(usage.ru_stime)
}

let loadStart = clock.now
let model: DetectionModel
do { model = try DetectionModel(path: modelPath) } catch { fail("\(error)") }
let loadMilliseconds = milliseconds(clock.now - loadStart)

guard let inputData = FileManager.default.contents(atPath: inputPath) else { fail("cannot read \(inputPath)") }
let count = shape.reduce(1, *)
guard inputData.count == count * 4 else { fail("\(inputPath) holds \(inputData.count) bytes, expected \(count * 4) for \(shape)") }
let input = Tensor(shape: shape)
inputData.withUnsafeBytes { raw in
    for i in 0..<count { input.data[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))) }
}

let endToEnd = options["end2end"] == "1"
let selection = EndToEndSelection(options: PostprocessOptions(confidenceThreshold: 0, maxDetections: EndToEndSelection.minimumTopK))

/// One forward pass: the head output, or with `--end2end 1` the one-to-one head's top-k rows `[1, k, 6]`.
func forward() throws -> Tensor {
    let head = try model(input, endToEnd: endToEnd)
    guard endToEnd else { return head }
    let rows = try selection.selections(head: UnsafeBufferPointer(head.buffer), classCount: model.classCount,
                                        anchorCount: head.shape[2])
    let output = Tensor(shape: [1, rows.count, 6])
    for (i, row) in rows.enumerated() {
        let d = row.detection
        for (j, value) in [d.box.x1, d.box.y1, d.box.x2, d.box.y2, d.confidence, Float(d.classId)].enumerated() {
            output.data[i * 6 + j] = value
        }
    }
    return output
}

reply(["ready": true, "threads": ComputeThreads.count, "load_ms": loadMilliseconds, "kernels": KernelSet.active.name])
while let line = readLine() {
    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
    guard let command = words.first else { continue }
    do {
        switch command {
        case "run":
            let runs = max(1, Int(words.count > 1 ? words[1] : "1") ?? 1)
            var times: [Double] = []
            times.reserveCapacity(runs)
            let cpuStart = processCPUMilliseconds()
            for _ in 0..<runs {
                let start = clock.now
                let output = try forward()
                times.append(milliseconds(clock.now - start))
                withExtendedLifetime(output) {}
            }
            reply(["ms": times, "cpu_ms": processCPUMilliseconds() - cpuStart])
        case "dump":
            guard words.count > 1 else { fail("dump needs a path") }
            let output = try forward()
            let data = Data(bytes: output.data, count: output.count * 4)
            try data.write(to: URL(fileURLWithPath: words[1]))
            reply(["shape": output.shape])
        case "quit":
            exit(0)
        default:
            reply(["error": "unknown command \(command)"])
        }
    } catch {
        reply(["error": "\(error)"])
    }
}
