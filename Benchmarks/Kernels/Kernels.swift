// YOLOKernels on the layer shapes that YOLO11n runs at 640×640, with ordo-one/benchmark:
// wall-clock time per call, and the arithmetic rate as a custom metric (MFLOP/s for the
// convolutions, counting a multiply-add as two operations as `swift-yolo bench` does; Melem/s for
// pooling and the element-wise epilogue, counting output elements).
//
//   make bench-kernels                                   every kernel at 1 and 2 threads
//   KERNEL_THREADS=1 make bench-kernels                  one thread only
//   KERNEL_ITERATIONS=5 KERNEL_SECONDS=1 make bench-kernels   shorter (defaults 200 and 2, whichever ends first)
//   make bench-kernels BENCH_ARGS="--filter 'Conv.*'"    a subset (any `swift package benchmark` option)
//
// Weights and inputs are seeded random numbers; the kernels' speed does not depend on the values
// (no zeros are skipped, and the inputs stay clear of subnormals).

import Benchmark
import Foundation
import YOLOKernels
import YOLOKernelSets

/// One kernel call on one of YOLO11n's shapes. (The benchmarks run one after another on one thread.)
struct KernelCase: @unchecked Sendable {
    /// Shown in the benchmark name, with the layer it comes from.
    let name: String
    /// The work one call does, in `unit`s (FLOP, or elements).
    let work: Int
    let unit: Unit
    /// Builds its inputs once, and returns a call that does the work and a reset that restores the
    /// input of an in-place kernel (untimed).
    let prepare: () -> (call: () -> Void, reset: (() -> Void)?)
    /// Whether the work runs on the engine's threads (else it is measured at one thread only).
    var usesThreads = true

    enum Unit { case flop, element }
}

/// Deterministic values in [-1, 1): the same inputs on every run.
struct SeededValues {
    private var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
    mutating func next() -> Float {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Float(state >> 40) / Float(1 << 23) - 1
    }
    mutating func array(_ count: Int, scale: Float = 1) -> [Float] { (0..<count).map { _ in next() * scale } }
    mutating func tensor(_ shape: [Int]) -> Tensor { Tensor(shape: shape, values: array(shape.reduce(1, *))) }
}

/// `Conv(c1, c2, k, s)` with its BatchNorm folded and SiLU, on a `side × side` input.
func convolution(_ layer: String, _ c1: Int, _ c2: Int, k: Int, s: Int = 1, groups: Int = 1, side: Int) -> KernelCase {
    let geometry = ConvolutionGeometry(inputChannels: c1, outputChannels: c2, kernelSize: k, stride: s, groups: groups)
    let flops = 2 * c2 * geometry.outputSize(side) * geometry.outputSize(side) * geometry.filterSize
    let kind = groups == 1 ? "Conv \(c1)→\(c2)" : (groups == c1 && c1 == c2 ? "DWConv \(c1)" : "Conv \(c1)→\(c2) g\(groups)")
    let name = "\(kind) k\(k) s\(s) @\(side)² (\(layer), \(String(format: "%.3f", Double(flops) / 1e9)) GFLOP)"
    return KernelCase(name: name, work: flops, unit: .flop) {
        var random = SeededValues(seed: UInt64(c1 * 1_000_003 + c2 * 1009 + k * 31 + s * 7 + side))
        let fanIn = Float(geometry.filterSize)
        let convolution = Convolution(
            geometry: geometry, weights: random.array(c2 * geometry.filterSize, scale: 1 / fanIn.squareRoot()),
            bias: random.array(c2, scale: 0.1), activation: .silu)
        let input = random.tensor([1, c1, side, side])
        return ({ blackHole(convolution(input)) }, nil)
    }
}

/// One GEMM `[m × k] · [k × n]` on one thread, by the engine's packed kernel (the filters packed
/// beforehand, as at model load; bias and SiLU in the epilogue).
func matrixProduct(_ layer: String, m: Int, k: Int, n: Int) -> KernelCase {
    let flops = 2 * m * k * n
    let name = "GEMM packed \(m)×\(k)·\(k)×\(n) (\(layer), \(String(format: "%.3f", Double(flops) / 1e9)) GFLOP)"
    return KernelCase(name: name, work: flops, unit: .flop, prepare: {
        var random = SeededValues(seed: UInt64(m * 1_000_003 + k * 1009 + n))
        let a = random.array(m * k, scale: 1 / Float(k).squareRoot()), bias = random.array(m, scale: 0.1)
        let b = random.tensor([k, n]), c = Tensor(shape: [m, n])
        let filters = a.withUnsafeBufferPointer { PackedMatrix(rows: m, depth: k, matrix: $0.baseAddress!, rowStride: k) }
        return ({
            bias.withUnsafeBufferPointer { bias in
                KernelSet.active.packedGEMM(filters, panels: 0..<filters.panels, b: b.data, bRowStride: n, columns: n, c: c.data, rowStride: n,
                                            epilogue: .biasActivation(bias: bias.baseAddress!, activation: .silu))
            }
            blackHole(c)
        }, nil)
    }, usesThreads: false)
}

let kernelCases: [KernelCase] = [
    matrixProduct("model.2 cv1 block", m: 32, k: 32, n: 2048),
    matrixProduct("Winograd plane, Detect cv2 P3", m: 64, k: 64, n: 240),
    matrixProduct("model.7, 64 positions", m: 256, k: 1152, n: 64),
    convolution("model.0", 3, 16, k: 3, s: 2, side: 640),
    convolution("model.1", 16, 32, k: 3, s: 2, side: 320),
    convolution("model.2 cv1", 32, 32, k: 1, side: 160),
    convolution("model.2 bottleneck", 16, 16, k: 3, side: 160),
    convolution("model.3", 64, 64, k: 3, s: 2, side: 160),
    convolution("Detect cv2 P3", 64, 64, k: 3, side: 80),
    convolution("Detect cv3 P3", 64, 64, k: 3, groups: 64, side: 80),
    convolution("Detect cv3 P3", 64, 80, k: 1, side: 80),
    convolution("model.7", 128, 256, k: 3, s: 2, side: 40),
    convolution("model.9 SPPF cv2", 512, 256, k: 1, side: 20),
    {
        // SPPF: nn.MaxPool2d(5, 1, 2) on cv1's 128 channels at 20×20.
        let (channels, side, k) = (128, 20, 5)
        return KernelCase(name: "MaxPool k5 s1 p2 @20²×128 (model.9 SPPF)", work: channels * side * side, unit: .element) {
            var random = SeededValues(seed: 5)
            let input = random.tensor([1, channels, side, side])
            return ({ blackHole(input.maxPooled(kernelSize: k, stride: 1, padding: k / 2)) }, nil)
        }
    }(),
    {
        // The epilogue of model.0: bias + SiLU over its 16×320×320 output, in place.
        let count = 16 * 320 * 320
        return KernelCase(name: "Bias+SiLU 1,638,400 floats (model.0 epilogue)", work: count, unit: .element) {
            var random = SeededValues(seed: 7)
            let source = random.array(count, scale: 4)
            let values = Tensor(shape: [count])
            let reset = { source.withUnsafeBufferPointer { values.data.update(from: $0.baseAddress!, count: count) } }
            reset()
            return ({ KernelSet.active.addBiasAndActivate(values.data, count: count, bias: 0.25, activation: .silu) }, reset)
        }
    }(),
]

/// `KERNEL_THREADS=1,2` (the default): each kernel at each of these thread counts.
let threadCounts: [Int] = {
    let text = ProcessInfo.processInfo.environment["KERNEL_THREADS"] ?? "1,2"
    let counts = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.filter { $0 >= 1 }
    return counts.isEmpty ? [1, 2] : counts
}()

/// `KERNEL_ITERATIONS` and `KERNEL_SECONDS`: each benchmark stops at whichever comes first.
let maxIterations = Int(ProcessInfo.processInfo.environment["KERNEL_ITERATIONS"] ?? "").map { max(1, $0) } ?? 200
let maxSeconds = Int(ProcessInfo.processInfo.environment["KERNEL_SECONDS"] ?? "").map { max(1, $0) } ?? 2

let megaFLOPs = BenchmarkMetric.custom("MFLOP/s", polarity: .prefersLarger, useScalingFactor: false)
let megaElements = BenchmarkMetric.custom("Melem/s", polarity: .prefersLarger, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    // The kernel set chosen as at load (SWIFTYOLO_KERNELS forces one); its name is in the report's header.
    guard let kernels = try? KernelSets.activate() else { fatalError("SWIFTYOLO_KERNELS names a kernel set this CPU cannot run") }
    print("kernel set: \(kernels.name) (\(kernels.instructions)) on \(KernelSets.cpuName)")
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, megaFLOPs, megaElements],
        timeUnits: .microseconds,
        // Shown as they are (MFLOP/s: 45123 is 45.1 GFLOP/s), not rounded to thousands.
        units: [megaFLOPs: .count, megaElements: .count],
        warmupIterations: 3,
        maxDuration: .seconds(maxSeconds),
        maxIterations: maxIterations)

    for threads in threadCounts {
        for kernel in kernelCases where kernel.usesThreads || threads == 1 {
            let metric = kernel.unit == .flop ? megaFLOPs : megaElements
            Benchmark(
                "\(kernel.name) · \(threads)t",
                configuration: .init(metrics: [.wallClock, metric], units: [metric: .count])
            ) { benchmark, prepared in
                ComputeThreads.set(threads)
                let clock = ContinuousClock()
                for _ in benchmark.scaledIterations {
                    prepared.reset?()
                    benchmark.startMeasurement()
                    let start = clock.now
                    prepared.call()
                    let elapsed = clock.now - start
                    benchmark.stopMeasurement()
                    let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
                    // work per microsecond = millions per second
                    benchmark.measurement(metric, Int((Double(kernel.work) * 1e3 / max(nanoseconds, 1)).rounded()))
                }
            } setup: {
                Prepared(kernel.prepare())
            }
        }
    }
}

/// A prepared kernel call, handed from `setup` to the measured closure.
final class Prepared: @unchecked Sendable {
    let call: () -> Void
    let reset: (() -> Void)?
    init(_ prepared: (call: () -> Void, reset: (() -> Void)?)) {
        call = prepared.call
        reset = prepared.reset
    }
}
