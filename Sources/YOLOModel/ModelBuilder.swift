import Foundation
import YOLOKernels

/// Builds the layers of a `DetectionModel` from its description, as Ultralytics' `parse_model` does:
/// output channels scaled by the width multiple (capped by `max_channels`, rounded up to a multiple
/// of 8), repeats scaled by the depth multiple, and each module's arguments resolved in place.
struct ModelBuilder {
    let description: ModelDescription
    let loader: WeightLoader

    /// Modules that take their repeat count as a constructor argument instead of being repeated.
    private static let repeatModules: Set<String> = ["C3k2", "C3k", "C2PSA"]

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
            let built = try buildLayer(row.module, index: index, arguments: arguments, inputChannels: inputChannels, repeats: repeats,
                                       scope: scope, singleInput: row.hasSingleInput, invalid: invalid)
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

    private struct BuiltLayer {
        let operation: Layer.Operation
        let outputChannels: Int
        let arguments: [JSONValue]
        let parameterCount: Int
    }

    private func buildLayer(
        _ module: String, index: Int, arguments: [JSONValue], inputChannels: [Int], repeats: Int, scope: WeightScope,
        singleInput: Bool, invalid: (String) -> ModelError
    ) throws -> BuiltLayer {
        let c1 = inputChannels[0]
        func argument(_ position: Int) -> JSONValue? { position < arguments.count ? arguments[position] : nil }
        func int(_ position: Int, default value: Int) throws -> Int {
            guard let argument = argument(position), argument != .null else { return value }
            guard let int = argument.intValue else { throw invalid("argument \(position) of \(module) is \(argument), expected an integer") }
            return int
        }
        func bool(_ position: Int, default value: Bool) throws -> Bool {
            guard let argument = argument(position), argument != .null else { return value }
            guard let bool = argument.boolValue else { throw invalid("argument \(position) of \(module) is \(argument), expected True or False") }
            return bool
        }
        func double(_ position: Int, default value: Double) throws -> Double {
            guard let argument = argument(position), argument != .null else { return value }
            guard let double = argument.doubleValue else { throw invalid("argument \(position) of \(module) is \(argument), expected a number") }
            return double
        }
        func requireSingleInput() throws {
            guard singleInput else { throw invalid("\(module) takes one input, got \(inputChannels.count)") }
        }

        switch module {
        case "Conv", "DWConv", "C3k2", "C3k", "SPPF", "C2PSA":
            try requireSingleInput()
            let c2 = scaledChannels(try int(0, default: c1))
            guard (1...Self.maximumChannels).contains(c2) else { throw invalid("\(module) with \(c2) output channels, outside 1…\(Self.maximumChannels)") }
            // Ultralytics' resolved arguments: [c1, c2, (n,) rest…].
            var resolved: [JSONValue] = [.int(c1), .int(c2)] + arguments.dropFirst()
            let builtRepeats = Self.repeatModules.contains(module) ? 1 : repeats
            if Self.repeatModules.contains(module) { resolved.insert(.int(repeats), at: 2) }
            let makeModule: (WeightScope) throws -> any Module
            switch module {
            case "Conv", "DWConv":
                let kernelSize = try int(1, default: 1), stride = try int(2, default: 1)
                guard (1...Self.maximumKernelSize).contains(kernelSize), (1...Self.maximumStride).contains(stride) else {
                    throw invalid("\(module) kernel \(kernelSize) or stride \(stride) is outside 1…\(Self.maximumKernelSize), 1…\(Self.maximumStride)")
                }
                guard argument(3) == nil || argument(3) == .null, try int(5, default: 1) == 1 else {
                    throw invalid("\(module) with explicit padding or dilation is not supported")
                }
                guard try bool(6, default: true) else { throw invalid("\(module) with act=False in the yaml is not supported") }
                let groups = try int(4, default: 1)
                guard groups >= 1, c1 % groups == 0, c2 % groups == 0 else { throw invalid("\(groups) groups do not divide \(c1) → \(c2) channels") }
                makeModule = { scope in
                    module == "Conv"
                        ? try Conv(scope, inputChannels: c1, outputChannels: c2, kernelSize: kernelSize, stride: stride, groups: groups)
                        : try DWConv.load(scope, inputChannels: c1, outputChannels: c2, kernelSize: kernelSize, stride: stride)
                }
            case "C3k2":
                // The m/l/x scales always use C3k inner blocks (parse_model sets args[3] = True).
                let usesC3k = ["m", "l", "x"].contains(description.scale) ? true : try bool(1, default: false)
                if ["m", "l", "x"].contains(description.scale) {
                    if resolved.count > 3 { resolved[3] = .bool(true) } else { resolved.append(.bool(true)) }
                }
                let expansion = try double(2, default: 0.5)
                guard try !bool(3, default: false) else { throw invalid("C3k2 with attention blocks (attn=True) is not supported") }
                let groups = try int(4, default: 1), shortcut = try bool(5, default: true)
                let hidden = Int(Double(c2) * min(max(expansion, 0), 4))
                guard expansion > 0, expansion <= 4, hidden >= 2, groups >= 1, (hidden / 2) % groups == 0, hidden % groups == 0 else {
                    throw invalid("C3k2 expansion \(expansion) or groups \(groups) does not fit \(c2) channels")
                }
                makeModule = { scope in
                    try C3k2(scope, inputChannels: c1, outputChannels: c2, repeats: repeats, usesC3k: usesC3k,
                             expansion: expansion, groups: groups, shortcut: shortcut)
                }
            case "C3k":
                let shortcut = try bool(1, default: true), groups = try int(2, default: 1)
                let expansion = try double(3, default: 0.5), kernelSize = try int(4, default: 3)
                guard (1...Self.maximumKernelSize).contains(kernelSize), expansion > 0, expansion <= 4, groups >= 1 else {
                    throw invalid("C3k kernel \(kernelSize), expansion \(expansion) or groups \(groups) out of range")
                }
                makeModule = { scope in
                    try C3k(scope, inputChannels: c1, outputChannels: c2, repeats: repeats, shortcut: shortcut,
                            groups: groups, expansion: expansion, kernelSize: kernelSize)
                }
            case "SPPF":
                let kernelSize = try int(1, default: 5), poolings = try int(2, default: 3), shortcut = try bool(3, default: false)
                guard (1...Self.maximumKernelSize).contains(kernelSize), kernelSize % 2 == 1, (1...8).contains(poolings) else {
                    throw invalid("SPPF kernel \(kernelSize) (odd, 1…\(Self.maximumKernelSize)) or poolings \(poolings) (1…8) out of range")
                }
                makeModule = { scope in
                    try SPPF(scope, inputChannels: c1, outputChannels: c2, kernelSize: kernelSize, poolings: poolings, shortcut: shortcut)
                }
            default:  // C2PSA
                let expansion = try double(1, default: 0.5)
                guard expansion > 0, expansion <= 4, Int(Double(c1) * expansion) >= 1, c1 == c2 else {
                    throw invalid("C2PSA expansion \(expansion) does not fit \(c1) → \(c2) channels")
                }
                makeModule = { scope in
                    try C2PSA(scope, inputChannels: c1, outputChannels: c2, repeats: repeats, expansion: expansion)
                }
            }
            let built: any Module = builtRepeats > 1
                ? Sequential(modules: try (0..<builtRepeats).map { try makeModule(scope.child($0)) })
                : try makeModule(scope)
            return BuiltLayer(operation: .module(built), outputChannels: c2, arguments: resolved, parameterCount: built.parameterCount)

        case "nn.Upsample":
            try requireSingleInput()
            guard argument(0) == nil || argument(0) == .null, let factor = argument(1)?.intValue, (1...Self.maximumUpsampling).contains(factor),
                  argument(2)?.stringValue ?? "nearest" == "nearest"
            else { throw invalid("only nn.Upsample(None, integer factor 1…\(Self.maximumUpsampling), 'nearest') is supported, got \(arguments)") }
            return BuiltLayer(operation: .module(Upsample(factor: factor)), outputChannels: c1, arguments: arguments, parameterCount: 0)

        case "Concat":
            guard try int(0, default: 1) == 1 else { throw invalid("Concat along a dimension other than 1 (channels)") }
            return BuiltLayer(operation: .concat, outputChannels: inputChannels.reduce(0, +), arguments: arguments, parameterCount: 0)

        default:
            guard let head = HeadBuilder.table[module] else {
                throw ModelError.unsupportedModule(file: loader.file.path, layer: index, module: module)
            }
            let built = try head.build(HeadBuilder.Context(
                module: module, task: description.task, classCount: description.classCount, strides: description.strides,
                keypointShape: description.keypointShape, arguments: arguments, inputChannels: inputChannels, scope: scope,
                protoChannels: scaledChannels, file: loader.file.path, layer: index))
            return BuiltLayer(operation: .head(built.head), outputChannels: 4 + description.classCount + built.head.extras.rowCount,
                              arguments: built.arguments, parameterCount: built.head.parameterCount)
        }
    }

    /// Ultralytics' width scaling: `make_divisible(min(c, max_channels) · width, 8)`.
    private func scaledChannels(_ channels: Int) -> Int {
        let scaled = Double(min(channels, description.maxChannels)) * description.widthMultiple
        return Int(min((scaled / 8).rounded(.up), Double(Self.maximumChannels))) * 8
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
