import FoundationEssentials
import Glibc
import YOLOFileSystem
import YOLOKernels
import YOLOPlatform

/// The results of `swift-yolo bench`, as tables for people or one JSON object for scripts.
struct BenchReport {
    struct Layer: Encodable {
        let index: Int
        let module: String
        /// Median over the timed runs.
        let milliseconds: Double
        let flops: Int
    }

    let model: String
    /// The head that ran: `end2end` (the one-to-one branches, for a model that has them) or `one2many`.
    let head: String
    let height: Int
    let width: Int
    let threads: Int
    /// The kernel set that ran (`KernelSet.active`) and the CPU.
    let kernels: KernelSet
    let cpu: String
    let runs: Int
    let warmup: Int
    let loadMilliseconds: Double
    let totals: [Double]
    let layers: [Layer]
    let peakResidentMegabytes: Double
    /// The most tensor storage live at once (activations and scratch buffers).
    let peakTensorMegabytes: Double
    /// The memory plan's bound on it (`DetectionModel.plannedActivationBytes`).
    let plannedTensorMegabytes: Double
    /// The tensor arena's extent (`BufferPool.arenaBytes`): the tensor memory the process has touched.
    let arenaMegabytes: Double

    var text: String {
        let totalFlops = layers.reduce(0) { $0 + $1.flops }
        let median = totals.median
        var lines = [
            "model \(DisplayText.terminal(model)) (\(head) head), input \(height)×\(width), \(threads) thread\(threads == 1 ? "" : "s"), \(runs) runs after \(warmup) warm-up",
            "SwiftYOLO kernels: \(kernels.name) (\(kernels.instructions); \(kernels.vectorLanes)-float vectors, "
                + (kernels.fusedMultiplyAdd ? "fused multiply-add" : "separate multiply and add") + ") on \(cpu)",
            String(cFormat: "forward pass: median %.2f ms, min %.2f ms, max %.2f ms (%.2f GFLOP, %.1f GFLOP/s)",
                   median, totals.min() ?? 0, totals.max() ?? 0, Double(totalFlops) / 1e9, Double(totalFlops) / 1e6 / median),
            String(cFormat: "model load %.1f ms, peak resident memory %.1f MB (tensors at most %.1f MB at once in an arena of %.1f MB, planned %.1f MB)",
                   loadMilliseconds, peakResidentMegabytes, peakTensorMegabytes, arenaMegabytes, plannedTensorMegabytes),
            "",
        ]
        var table = TextTable([("layer", .right), ("module", .left), ("ms", .right), ("GFLOP", .right), ("GFLOP/s", .right), ("share", .right)])
        let layerSum = layers.reduce(0) { $0 + $1.milliseconds }
        for layer in layers {
            table.append([String(layer.index), layer.module, String(cFormat: "%.2f", layer.milliseconds),
                          String(cFormat: "%.3f", Double(layer.flops) / 1e9),
                          layer.flops > 0 ? String(cFormat: "%.1f", Double(layer.flops) / 1e6 / max(layer.milliseconds, 1e-6)) : "-",
                          String(cFormat: "%.1f%%", 100 * layer.milliseconds / max(layerSum, 1e-9))])
        }
        lines.append(table.render())
        return lines.joined(separator: "\n")
    }

    /// `{"median_ms", "min_ms", "max_ms", "threads", "imgsz", "layers": [...], …}`.
    var json: String {
        struct Output: Encodable {
            let model: String
            let head: String
            let imgsz: [Int]
            let threads: Int
            let kernels: String
            let cpu: String
            let fused_multiply_add: Bool
            let vector_lanes: Int
            let runs: Int
            let warmup: Int
            let median_ms: Double
            let min_ms: Double
            let max_ms: Double
            let gflop: Double
            let load_ms: Double
            let peak_rss_mb: Double
            let peak_tensor_mb: Double
            let planned_tensor_mb: Double
            let arena_mb: Double
            let layers: [LayerOutput]
        }
        struct LayerOutput: Encodable {
            let index: Int
            let module: String
            let median_ms: Double
            let gflop: Double
        }
        let output = Output(
            model: model, head: head, imgsz: [height, width], threads: threads, kernels: kernels.name, cpu: cpu,
            fused_multiply_add: kernels.fusedMultiplyAdd, vector_lanes: kernels.vectorLanes, runs: runs, warmup: warmup,
            median_ms: totals.median, min_ms: totals.min() ?? 0, max_ms: totals.max() ?? 0,
            gflop: Double(layers.reduce(0) { $0 + $1.flops }) / 1e9, load_ms: loadMilliseconds, peak_rss_mb: peakResidentMegabytes, peak_tensor_mb: peakTensorMegabytes,
            planned_tensor_mb: plannedTensorMegabytes, arena_mb: arenaMegabytes,
            layers: layers.map { LayerOutput(index: $0.index, module: $0.module, median_ms: $0.milliseconds, gflop: Double($0.flops) / 1e9) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(output), as: UTF8.self)) ?? "{}"
    }
}
