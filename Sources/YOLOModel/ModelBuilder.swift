import FoundationEssentials
import Glibc
import YOLOKernels

/// Builds the layers of a `DetectionModel` from its description, as Ultralytics' `parse_model` does:
/// output channels scaled by the width multiple (capped by `max_channels`, rounded up to a multiple
/// of 8), repeats scaled by the depth multiple, and each module's arguments resolved in place; each
/// module is then built by its entry in `LayerBuilders.table`.
struct ModelBuilder {
    let description: ModelDescription
    let loader: WeightLoader

    /// Limits on what a layer may ask for, so that a hostile model description is refused at load
    /// instead of exhausting memory or breaking an invariant at run time.
    static let maximumChannels = 16_384
    static let maximumKernelSize = 15
    static let maximumStride = 8
    static let maximumUpsampling = 16

    func build() throws -> [Layer] {
        var outputChannels: [Int] = []
        // Each layer's downsampling of the input (its stride): inputs of one layer must agree, and
        // Detect's must be the strides the file lists.
        var scales: [Int] = []
        var layers: [Layer] = []
        for (index, row) in description.rows.enumerated() {
            func invalid(_ reason: String) -> ModelError { .invalidLayer(file: loader.file.path, layer: index, reason: reason) }
            // Channels and scale of each input; `-1` is the previous layer (the image before layer 0).
            let inputs = try row.from.map { source -> (channels: Int, scale: Int) in
                if source == -1 { return (outputChannels.last ?? description.inputChannels, scales.last ?? 1) }
                guard source >= 0, source < index else { throw invalid("input \(source) is not an earlier layer") }
                return (outputChannels[source], scales[source])
            }
            let inputChannels = inputs.map(\.channels)
            let arguments = row.arguments.map(resolve)
            let repeats = row.repeats > 1 ? max(Int((Double(row.repeats) * description.depthMultiple).rounded(.toNearestOrEven)), 1) : row.repeats
            let scope = WeightScope(loader: loader, prefix: "model.\(index)")
            guard let builder = LayerBuilders.table[row.module] else {
                throw ModelError.unsupportedModule(file: loader.file.path, layer: index, module: row.module)
            }
            let built = try builder(LayerContext(
                module: row.module, index: index, arguments: arguments, inputChannels: inputChannels, repeats: repeats, scope: scope,
                singleInput: row.hasSingleInput, description: description, file: loader.file.path))
            guard (1...Self.maximumChannels).contains(built.outputChannels) else {
                throw invalid("\(built.outputChannels) output channels, outside 1…\(Self.maximumChannels)")
            }
            let scale: Int
            switch built.operation {
            case let .module(module):
                // The module's effect on a side of `inputs[0].scale · 64` pixels gives its stride or upsampling.
                let side = inputs[0].scale * 64, out = module.outputSize((side, side)).0
                guard out > 0, (side % out == 0 || out % side == 0) else { throw invalid("its output size does not follow from its input's") }
                scale = side % out == 0 ? inputs[0].scale * (side / out) : inputs[0].scale / (out / side)
                guard scale >= 1, inputs[0].scale % max(out / side, 1) == 0 else {
                    throw invalid("it upsamples past the input's own resolution")
                }
            case .concat:
                guard inputs.allSatisfy({ $0.scale == inputs[0].scale }) else {
                    throw invalid("Concat joins inputs of different strides \(inputs.map(\.scale)): their sizes cannot match")
                }
                scale = inputs[0].scale
            case .head:
                guard inputs.map(\.scale) == description.strides else {
                    throw invalid("\(row.module)'s inputs have strides \(inputs.map(\.scale)), the file says \(description.strides)")
                }
                scale = inputs[0].scale
            }
            scales.append(scale)
            outputChannels.append(built.outputChannels)
            layers.append(Layer(
                index: index, from: row.from, repeats: repeats, module: row.module, arguments: built.arguments,
                outputChannels: built.outputChannels,
                storedParameterCount: storedParameterCount(prefix: scope.prefix + "."),
                foldedParameterCount: built.parameterCount, operation: built.operation))
        }
        return layers
    }

    /// Resolves a yaml argument as `parse_model` does: the string `nc` is the class count, and
    /// strings that spell Python literals (`None`, `True`, `2`, `0.5`) are those literals.
    private func resolve(_ argument: JSONValue) -> JSONValue {
        guard case let .string(text) = argument else { return argument }
        switch text {
        case "nc": return .int(description.classCount)
        case "kpt_shape": return description.keypointShape.map { .array([.int($0.count), .int($0.dimensions)]) } ?? argument
        case "None": return .null
        case "True": return .bool(true)
        case "False": return .bool(false)
        default:
            if let int = Int(text) { return .int(int) }
            if let double = Double(text), double.isFinite { return .double(double) }
            return argument
        }
    }

    /// Stored parameters under `prefix`: every tensor but BatchNorm's running statistics.
    private func storedParameterCount(prefix: String) -> Int {
        loader.file.entries
            .filter { $0.name.hasPrefix(prefix) && !$0.name.hasSuffix(".running_mean") && !$0.name.hasSuffix(".running_var") }
            .reduce(0) { $0 + $1.count }
    }
}
