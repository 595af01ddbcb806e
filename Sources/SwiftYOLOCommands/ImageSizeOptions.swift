import ArgumentParser
import SwiftYOLO
import YOLOKernels
import YOLOModel

/// `--imgsz` and `--max-memory`, with the one rule every command applies: a side in
/// `Detector.commandLineImageSizes`, rounded up to the model's stride, whose memory plan fits the limit.
struct ImageSizeOptions: ParsableArguments {
    @Option(help: "Input size: the long side of the image is scaled to this, rounded up to a multiple of the model's stride (32…16384).")
    var imgsz: Int = 640

    @Option(name: .customLong("max-memory"), help: ArgumentHelp(
        "Refuse an input size whose activations would need more than this (e.g. 800M, 12G). Default: half of the machine's memory.",
        valueName: "size"))
    var maxMemory: MemorySize = MemorySize.defaultLimit

    func validate() throws {
        let sizes = Detector.commandLineImageSizes
        guard sizes.contains(imgsz) else {
            throw ValidationError("--imgsz must lie in \(sizes.lowerBound)…\(sizes.upperBound), got \(imgsz)")
        }
    }

    /// The input side for `model`: `imgsz` rounded up to its largest stride.
    func side(for model: DetectionModel) -> Int {
        (imgsz + model.maximumStride - 1) / model.maximumStride * model.maximumStride
    }

    /// Refuses (exit 64) an `--imgsz` whose largest input, `side × side`, the memory plan says would
    /// need more than `--max-memory`, or more than the address space the process could reserve for
    /// its tensors (under `ulimit -v`): checked before the first pass, instead of the out-of-memory
    /// killer or a failed allocation ending the process part-way.
    ///
    /// - Parameter passes: the passes that run at once (`serve`'s workers), each with its own activations.
    func checkMemoryPlan(_ model: DetectionModel, passes: Int = 1) throws {
        let side = side(for: model)
        guard let shortfall = model.activationMemoryShortfall(height: side, width: side, limit: maxMemory.bytes, passes: passes) else { return }
        // Under `ulimit -v` each of the kernels' threads takes address space for its stack: named
        // where there are more of them than cores, which gains nothing.
        let remedy = if case .limit = shortfall.bound { " or raise --max-memory" }
            else if ComputeThreads.count > AvailableCores.count { ", fewer --threads or raise ulimit -v" } else { " or raise ulimit -v" }
        let input = "a \(side)×\(side) input" + (passes > 1 ? ", \(passes) passes at once" : "")
        throw CommandFailure.usage("--imgsz \(imgsz) (\(input)) needs "
                                   + shortfall.explanation(limitName: "the --max-memory limit") + "; use a smaller --imgsz\(remedy)")
    }
}
