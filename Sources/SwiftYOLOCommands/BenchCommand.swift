import ArgumentParser
import FoundationEssentials
import Glibc
import SwiftYOLO
import YOLOFileSystem
import YOLOImage
import YOLOKernels
import YOLOKernelSets
import YOLOModel

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time the forward pass, in total and layer by layer.",
        discussion: """
            Runs --warmup untimed passes, then --runs timed ones, and prints the median, minimum and maximum \
            latency of the whole forward pass (preprocessed input to head output), then a table of the \
            top-level layers: median time, GFLOP, GFLOP/s and share of the total, so the slow layers are \
            plain to see. Also reports model load time and peak resident memory. A model with an end-to-end \
            head (YOLO26) runs that head, as `detect --end2end` does.

            The input is --imgsz × --imgsz, or, given an IMAGE, that image letterboxed as `detect` does \
            (the minimal stride-aligned rectangle; --square for the full square).

            Examples:
              swift-yolo bench --threads 1
              swift-yolo bench --json --runs 50 ../shared/images/bus.jpg
            """)

    @Argument(help: ArgumentHelp("An image whose letterboxed size (and pixels) to use.", valueName: "image"))
    var image: String?

    @OptionGroup var modelOptions: ModelOptions

    @OptionGroup var size: ImageSizeOptions

    @Flag(help: "With an IMAGE: letterbox onto the full square instead of the minimal rectangle.")
    var square = false

    @Option(help: "Timed runs.")
    var runs = 20

    @Option(help: "Untimed runs first.")
    var warmup = 3

    @OptionGroup var threadsOption: ThreadsOption

    @Flag(help: "Print one JSON object instead of tables.")
    var json = false

    /// The most timed or untimed runs one bench takes.
    static let maximumRuns = 1_000_000

    func validate() throws {
        guard (1...Self.maximumRuns).contains(runs) else { throw ValidationError("--runs must lie in 1...\(Self.maximumRuns), got \(runs)") }
        guard (0...Self.maximumRuns).contains(warmup) else { throw ValidationError("--warmup must lie in 0...\(Self.maximumRuns), got \(warmup)") }
    }

    func run() throws {
        Interruption.stopForwardPasses()
        let clock = ContinuousClock()
        let loadStart = clock.now
        let model = try modelOptions.load()
        let loadMilliseconds = (clock.now - loadStart).milliseconds
        // After the load, before the memory plan, as `DetectorArguments.makeDetector` does.
        threadsOption.apply()
        let input = try makeInput(model)
        let (height, width) = (input.shape[2], input.shape[3])
        let profiles = model.layerProfiles(height: height, width: width)

        var totals: [Double] = []
        var layerTimes = [[Double]](repeating: [], count: model.layers.count)
        func interrupted(by signal: Int32, run: Int) -> Interrupted {
            StandardStreams.message("interrupted by signal \(signal) after \(max(0, run - warmup)) of \(runs) timed run(s)")
            return Interrupted(signal: signal)
        }
        for run in 0..<(warmup + runs) {
            if let signal = Interruption.signal { throw interrupted(by: signal, run: run) }
            var last = clock.now
            var times = [Double](repeating: 0, count: model.layers.count)
            let start = last
            do {
                _ = try model(input, endToEnd: model.hasEndToEndHead) { index, _ in
                    let now = clock.now
                    times[index] = (now - last).milliseconds
                    last = now
                }
            } catch let stopped as Interruption.StoppedPass {
                throw interrupted(by: stopped.signal, run: run)
            }
            let total = (clock.now - start).milliseconds
            guard run >= warmup else { continue }
            totals.append(total)
            for (index, time) in times.enumerated() { layerTimes[index].append(time) }
        }
        let report = BenchReport(
            model: modelOptions.resolvedPath, head: model.hasEndToEndHead ? "end2end" : "one2many", height: height, width: width, threads: ComputeThreads.count,
            kernels: KernelSet.active, cpu: KernelSets.cpuName,
            runs: runs, warmup: warmup, loadMilliseconds: loadMilliseconds, totals: totals,
            layers: model.layers.map { layer in
                BenchReport.Layer(index: layer.index, module: layer.module, milliseconds: layerTimes[layer.index].median,
                                  flops: profiles[layer.index].flops)
            },
            peakResidentMegabytes: peakResidentMegabytes(),
            peakTensorMegabytes: Double(BufferPool.shared.liveBytes.peak) / 1_048_576,
            plannedTensorMegabytes: Double(model.plannedActivationBytes(height: height, width: width)) / 1_048_576,
            arenaMegabytes: Double(BufferPool.shared.arenaBytes) / 1_048_576)
        try StandardStreams.line(json ? report.json : report.text)
    }

    /// The benchmark input: the image letterboxed as `detect` prepares it, or a square of mid-grey.
    private func makeInput(_ model: DetectionModel) throws -> Tensor {
        try size.checkMemoryPlan(model)
        let side = size.side(for: model)
        guard let image else {
            let input = Tensor(shape: [1, 3, side, side])
            input.buffer.update(repeating: 114 / 255)
            return input
        }
        let decoded: RGBImage
        do { decoded = try ImageDecoder().decode(contentsOf: image) } catch { throw CommandFailure.badModelOrData(error) }
        let preprocessor = Preprocessor(options: PreprocessOptions(imageSize: side, mode: square ? .square : .letterbox, stride: model.maximumStride))
        let (canvas, _) = preprocessor.canvas(for: decoded)
        let input = Tensor(shape: [1, 3, canvas.height, canvas.width])
        Preprocessor.writeCHW(canvas, into: input.buffer)
        return input
    }

    private func peakResidentMegabytes() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024  // Linux reports kilobytes
    }
}

extension Array where Element == Double {
    var median: Double {
        guard !isEmpty else { return 0 }
        let sorted = self.sorted()
        return count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
    }
}

