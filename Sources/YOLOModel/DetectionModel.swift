import Foundation
import YOLOKernels

/// A YOLO11 detection network built from a weights file, mirroring Ultralytics' `DetectionModel`:
/// the layers come from the yaml in the file, widths and repeats from its scale, tensors by their
/// state-dict names. Immutable once built, so one model may run on several threads at once.
public final class DetectionModel: Sendable {
    public let file: String
    public let description: ModelDescription
    public let layers: [Layer]
    /// The file's metadata, for reporting (source checkpoint, converter, versions).
    public let metadata: JSONValue
    /// For each layer, the last later layer that reads its output by index (not as `-1`, the
    /// previous layer), or the layer itself when none does: its output is kept until then.
    private let lastReader: [Int]

    /// Loads and validates the weights file at `path` and builds the network.
    public convenience init(path: String) throws {
        try self.init(file: TensorFile(path: path))
    }

    public init(file: TensorFile) throws {
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

    public var classNames: [String] { description.classNames }
    public var classCount: Int { description.classCount }
    public var strides: [Int] { description.strides }
    /// The largest stride: input sides must be multiples of it.
    public var maximumStride: Int { description.strides.max() ?? 32 }

    public var storedParameterCount: Int { layers.reduce(0) { $0 + $1.storedParameterCount } }
    public var foldedParameterCount: Int { layers.reduce(0) { $0 + $1.foldedParameterCount } }

    /// Runs the network on a preprocessed `[1, 3, H, W]` image (RGB in [0, 1], sides multiples of the
    /// largest stride) and returns the head output `[1, 4 + nc, anchors]`.
    ///
    /// Upsampling and concatenation layers leave their output unwritten (`FeatureMap`): the 1×1
    /// convolution that reads them takes the parts where they lie.
    ///
    /// - Parameter observe: called with each top-level layer's index and output, in order (its
    ///   `tensor` writes an unwritten one out).
    public func callAsFunction(_ input: Tensor, observe: ((Int, FeatureMap) -> Void)? = nil) throws -> Tensor {
        try validate(input)
        var outputs = [FeatureMap?](repeating: nil, count: layers.count)
        var previous = FeatureMap(input)
        for layer in layers {
            let inputs = layer.from.map { source -> FeatureMap in
                guard source != -1 else { return previous }
                guard let saved = outputs[source] else { preconditionFailure("layer \(source)'s output was released before layer \(layer.index) read it") }
                return saved
            }
            let output: FeatureMap
            switch layer.operation {
            case let .module(module): output = module(inputs[0])
            case .concat: output = FeatureMap(concatenating: inputs)
            case let .detect(detect): output = FeatureMap(detect(inputs.map(\.tensor)))
            }
            observe?(layer.index, output)
            // Keep an output only while a later layer still reads it by index.
            if lastReader[layer.index] > layer.index { outputs[layer.index] = output }
            for source in layer.from where source >= 0 && lastReader[source] <= layer.index { outputs[source] = nil }
            previous = output
        }
        return previous.tensor
    }

    /// Throws unless `input` is a `[1, C_in, H, W]` map whose sides the strides divide.
    public func validate(_ input: Tensor) throws {
        guard input.rank == 4, input.shape[0] == 1, input.shape[1] == description.inputChannels else {
            throw ModelError.invalidInput(reason: "expected a [1, \(description.inputChannels), H, W] tensor, got \(input.shape)")
        }
        let (height, width) = (input.shape[2], input.shape[3])
        guard height > 0, width > 0, height % maximumStride == 0, width % maximumStride == 0 else {
            throw ModelError.invalidInput(reason: "input size \(height)×\(width) is not a positive multiple of the stride \(maximumStride)")
        }
    }

    /// Each layer's output shape and cost for an input of `height × width`, without running the network.
    public func layerProfiles(height: Int, width: Int) -> [LayerProfile] {
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
            case let .detect(detect):
                let anchors = sizes.reduce(0) { $0 + $1.0 * $1.1 }
                profiles.append(LayerProfile(outputShape: [1, 4 + detect.classCount, anchors], flops: detect.flops(sizes)))
                previous = (0, 0)
            }
        }
        return profiles
    }

    /// Each layer's output shape for an input of `height × width`.
    public func outputShapes(height: Int, width: Int) -> [[Int]] {
        layerProfiles(height: height, width: width).map(\.outputShape)
    }
}

/// What one layer produces and costs for a given input size.
public struct LayerProfile: Sendable, Equatable {
    public let outputShape: [Int]
    /// Floating-point operations (a multiply-add counts two).
    public let flops: Int
}
