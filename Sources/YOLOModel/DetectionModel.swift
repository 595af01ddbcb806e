import FoundationEssentials
import Glibc
import YOLOKernels
import YOLOFileSystem
import YOLOKernelSets

/// A YOLO11 or YOLO26 network built from a weights file, mirroring Ultralytics' `DetectionModel`:
/// the layers come from the yaml in the file, widths and repeats from its scale, tensors by their
/// state-dict names. Immutable once built, so one model may run on several threads at once.
package final class DetectionModel: Sendable {
    package let file: String
    package let description: ModelDescription
    package let layers: [Layer]
    /// The file's metadata, for reporting (source checkpoint, converter, versions).
    package let metadata: JSONValue
    /// For each layer, the last later layer that reads its output by index (not as `-1`, the
    /// previous layer), or the layer itself when none does: its output is kept until then.
    private let lastReader: [Int]

    /// Loads and validates the weights file at `path` and builds the network.
    package convenience init(path: String) throws {
        try self.init(file: TensorFile(path: path))
    }

    package init(file: TensorFile) throws {
        try KernelSets.activate()  // once per process: the kernel set the layers run
        _ = BufferPool.allocatorArenasLimited  // once per process, under `ulimit -v`
        try file.requireKind("weights")
        self.file = file.path
        self.metadata = file.metadata
        let description = try ModelDescription(metadata: file.metadata, file: file.path)
        self.description = description
        let loader = try WeightLoader(file: file)
        self.layers = try ModelBuilder(description: description, loader: loader).build()
        try loader.requireAllTaken()
        var lastReader = Array(layers.indices)
        for layer in layers {
            for source in layer.from where source >= 0 { lastReader[source] = max(lastReader[source], layer.index) }
        }
        self.lastReader = lastReader
    }

    package var classNames: [String] { description.classNames }
    package var classCount: Int { description.classCount }
    package var strides: [Int] { description.strides }
    package var task: ModelTask { description.task }
    /// The rows the head adds after the boxes and class scores (`.none` for detection).
    package var headExtras: HeadExtras {
        for layer in layers.reversed() { if case let .head(head) = layer.operation { return head.extras } }
        return .none
    }
    /// The largest stride: input sides must be multiples of it.
    package var maximumStride: Int { description.strides.max() ?? 32 }

    package var storedParameterCount: Int { layers.reduce(0) { $0 + $1.storedParameterCount } }
    package var foldedParameterCount: Int { layers.reduce(0) { $0 + $1.foldedParameterCount } }

    /// Runs the network on a preprocessed `[1, 3, H, W]` image (RGB in [0, 1], sides multiples of the
    /// largest stride) and returns the head output `[1, 4 + nc, anchors]`.
    ///
    /// Upsampling and concatenation layers leave their output unwritten (`FeatureMap`): the 1×1
    /// convolution that reads them takes the parts where they lie.
    ///
    /// - Parameter observe: called with each top-level layer's index and output, in order (its
    ///   `tensor` writes an unwritten one out).
    package func callAsFunction(_ input: Tensor, endToEnd: Bool = false, observe: ((Int, FeatureMap) -> Void)? = nil) throws -> Tensor {
        try run(input, endToEnd: endToEnd, observe: observe).predictions
    }

    /// Whether the head carries one-to-one branches (YOLO26's `end2end`), which `endToEnd` runs.
    package var hasEndToEndHead: Bool {
        layers.contains { if case let .head(head) = $0.operation { head.detect.oneToOneBranches != nil } else { false } }
    }

    /// Runs the network as `callAsFunction` does, returning the whole head output: the predictions
    /// and, for a segmentation model, the mask prototypes.
    ///
    /// - Parameter endToEnd: run the head's one-to-one branches (Ultralytics' `nms=False`) instead of
    ///   the one-to-many ones: the predictions' boxes are then `x1, y1, x2, y2`. Throws when the head has none.
    ///
    /// `input` is taken over: a caller that passes its last reference (`consume`) gets the tensor's
    /// storage back into the buffer pool as soon as the first layer has read it, for the layers
    /// after it (where it would otherwise be fresh pages, each a fault and a zero-fill, in a
    /// process's first pass).
    ///
    /// Where a command has made passes stoppable (`Interruption.stopForwardPasses`), a pass throws
    /// `Interruption.StoppedPass` at the start of its next layer once SIGINT or SIGTERM has come.
    package func run(_ input: consuming Tensor, endToEnd: Bool = false, observe: ((Int, FeatureMap) -> Void)? = nil) throws -> HeadOutput {
        guard !endToEnd || hasEndToEndHead else { throw ModelError.noEndToEndHead(file: file) }
        try validate(input)
        var outputs = [FeatureMap?](repeating: nil, count: layers.count)
        var previous = FeatureMap(consume input)
        var prototypes: Tensor?
        for layer in layers {
            if let signal = Interruption.passStopSignal { throw Interruption.StoppedPass(signal: signal) }
            let inputs = layer.from.map { source -> FeatureMap in
                guard source != -1 else { return previous }
                guard let saved = outputs[source] else { preconditionFailure("layer \(source)'s output was released before layer \(layer.index) read it") }
                return saved
            }
            let output: FeatureMap
            switch layer.operation {
            case let .module(module): output = module(inputs[0])
            case .concat: output = FeatureMap(concatenating: inputs)
            case let .head(head):
                let levels = inputs.map(\.tensor)
                let result = endToEnd ? HeadOutput(predictions: head.detect.oneToOne(levels), prototypes: nil) : head.run(levels)
                prototypes = result.prototypes
                output = FeatureMap(result.predictions)
            }
            observe?(layer.index, output)
            // Keep an output only while a later layer still reads it by index.
            if lastReader[layer.index] > layer.index { outputs[layer.index] = output }
            for source in layer.from where source >= 0 && lastReader[source] <= layer.index { outputs[source] = nil }
            previous = output
        }
        return HeadOutput(predictions: previous.tensor, prototypes: prototypes)
    }

    /// Throws unless `input` is a `[1, C_in, H, W]` map whose sides the strides divide.
    package func validate(_ input: Tensor) throws {
        guard input.rank == 4, input.shape[0] == 1, input.shape[1] == description.inputChannels else {
            throw ModelError.invalidInput(reason: "expected a [1, \(description.inputChannels), H, W] tensor, got \(input.shape)")
        }
        let (height, width) = (input.shape[2], input.shape[3])
        guard height > 0, width > 0, height % maximumStride == 0, width % maximumStride == 0 else {
            throw ModelError.invalidInput(reason: "input size \(height)×\(width) is not a positive multiple of the stride \(maximumStride)")
        }
    }

    /// Each layer's output shape and cost for an input of `height × width`, without running the network.
    package func layerProfiles(height: Int, width: Int) -> [LayerProfile] {
        var profiles: [LayerProfile] = []
        var previous = (height, width)
        for layer in layers {
            let sizes = layer.from.map { $0 == -1 ? previous : (profiles[$0].outputShape[2], profiles[$0].outputShape[3]) }
            switch layer.operation {
            case let .module(module):
                let size = module.outputSize(sizes[0])
                profiles.append(LayerProfile(outputShape: [1, layer.outputChannels, size.0, size.1], flops: module.flops(sizes[0])))
                previous = size
            case .concat:
                profiles.append(LayerProfile(outputShape: [1, layer.outputChannels, sizes[0].0, sizes[0].1], flops: 0))
                previous = sizes[0]
            case let .head(head):
                let anchors = sizes.reduce(0) { $0 + $1.0 * $1.1 }
                profiles.append(LayerProfile(outputShape: [1, layer.outputChannels, anchors], flops: head.flops(sizes)))
                previous = (0, 0)
            }
        }
        return profiles
    }

    /// The memory plan: the most bytes of activations a forward pass over a `height × width` input
    /// holds at once. At each layer it adds the network's input, the outputs kept for later layers,
    /// the layer's inputs and output, `workingSetFactor` times those for the blocks' intermediate maps,
    /// and the layer's scratch (`Module.scratchBytes`: the kernels' per-block buffers, one block per
    /// thread, which do not shrink with small inputs; the attention's `[N, N]` scores, which grow
    /// faster than the maps). MemoryPlanTests hold it above the measured peak and within twice it,
    /// so that an input size can be refused before its first pass.
    package func plannedActivationBytes(height: Int, width: Int) -> Int {
        let profiles = layerProfiles(height: height, width: width)
        func bytes(_ shape: [Int]) -> Int { shape.reduce(MemoryLayout<Float>.stride, *) }
        let inputBytes = bytes([1, description.inputChannels, height, width])
        var peak = 0
        var sizes: [(Int, Int)] = []
        var previous = (height, width)
        for (index, layer) in layers.enumerated() {
            let shape = profiles[index].outputShape
            let inputs = layer.from.reduce(0) { total, source in
                total + (source == -1 ? (index == 0 ? inputBytes : bytes(profiles[index - 1].outputShape)) : bytes(profiles[source].outputShape))
            }
            // Earlier outputs still alive that this layer does not read (the previous one always is).
            let kept = (0..<index).reduce(0) { total, earlier in
                let alive = lastReader[earlier] >= index || earlier == index - 1
                let read = layer.from.contains(earlier) || (earlier == index - 1 && layer.from.contains(-1))
                return alive && !read ? total + bytes(profiles[earlier].outputShape) : total
            }
            var scratch = 0
            switch layer.operation {
            case let .module(module):
                let size = layer.from[0] == -1 ? previous : sizes[layer.from[0]]
                scratch = module.scratchBytes(size, running: ComputeThreads.count)
            case let .head(head):
                scratch = head.scratchBytes(layer.from.map { $0 == -1 ? previous : sizes[$0] })
            case .concat:
                break
            }
            let working = Double(inputs + bytes(shape)) * (1 + Self.workingSetFactor)
            // The network's input stays alive in the caller for the whole pass.
            let held = (index == 0 ? 0 : inputBytes) + kept
            peak = max(peak, held + Int(working.rounded(.up)) + scratch)
            let size = shape.count == 4 ? (shape[2], shape[3]) : (0, 0)
            sizes.append(size)
            previous = size
        }
        return peak
    }

    /// The intermediate maps and packed copies a block holds beyond its input and output, as a
    /// multiple of those (C3k2's split, its inner blocks' outputs and their concatenation).
    static let workingSetFactor = 1.5

    /// Each layer's output shape for an input of `height × width`.
    package func outputShapes(height: Int, width: Int) -> [[Int]] {
        layerProfiles(height: height, width: width).map(\.outputShape)
    }
}

/// What one layer produces and costs for a given input size.
package struct LayerProfile: Sendable, Equatable {
    package let outputShape: [Int]
    /// Floating-point operations (a multiply-add counts two).
    package let flops: Int
}
