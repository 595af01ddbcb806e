/// A 2-D convolution with bias and a fused activation, the inference form of Ultralytics' `Conv`
/// (`nn.Conv2d` + folded `nn.BatchNorm2d` + `nn.SiLU`) and of a plain `nn.Conv2d`.
///
/// Fast path: the output positions are cut into blocks that run in parallel; for each block a 1×1
/// stride-1 convolution is a GEMM reading the input as it is, other kernels unfold the block's
/// input with `im2col` into a cache-sized buffer first, and the bias and activation are applied
/// to the block while it is still in cache. Depthwise convolutions run as direct loops.
public struct Convolution: Sendable {
    public let geometry: ConvolutionGeometry
    /// The filters as the im2col and depthwise paths read them: `[C_out, C_in/groups · k · k]`,
    /// row-major (PyTorch's `[C_out, C_in/groups, k, k]` flattened). Empty when the convolution runs
    /// by Winograd, which keeps its own transformed copy.
    private let filters: [Float]
    /// `[C_out]`.
    public let bias: [Float]
    public let activation: Activation
    /// Output positions per block; by default as many as keep a block's columns near 256 KiB.
    public let positionsPerBlock: Int?
    /// The Winograd form of a 3×3 stride-1 convolution, when it pays (see `init`).
    let winograd: WinogradConvolution?

    /// - Parameters:
    ///   - positionsPerBlock: forces the block size of the im2col path (tests use small odd sizes
    ///     to cover blocks that start and end inside output rows).
    ///   - allowsWinograd: run 3×3 stride-1 convolutions with at least 8 input and output channels
    ///     by Winograd F(4×4, 3×3) (the default); `false` keeps them on the im2col path.
    public init(geometry: ConvolutionGeometry, weights: [Float], bias: [Float], activation: Activation,
                positionsPerBlock: Int? = nil, allowsWinograd: Bool = true) {
        precondition(weights.count == geometry.outputChannels * geometry.filterSize,
                     "\(weights.count) weights for convolution \(geometry)")
        precondition(bias.count == geometry.outputChannels, "\(bias.count) biases for convolution \(geometry)")
        self.geometry = geometry
        self.bias = bias
        self.activation = activation
        self.positionsPerBlock = positionsPerBlock
        let suitsWinograd = geometry.kernelSize == 3 && geometry.stride == 1 && geometry.padding == 1 && geometry.groups == 1
            && geometry.inputChannels >= 8 && geometry.outputChannels >= 8
        if allowsWinograd && suitsWinograd {
            winograd = WinogradConvolution(inputChannels: geometry.inputChannels, outputChannels: geometry.outputChannels, weights: weights)
            filters = []
        } else {
            winograd = nil
            filters = weights
        }
    }

    /// Number of parameters (weights and biases).
    public var parameterCount: Int { geometry.outputChannels * geometry.filterSize + bias.count }

    /// Convolves a `[1, C_in, H, W]` feature map into a new `[1, C_out, OH, OW]` one.
    public func callAsFunction(_ input: Tensor) -> Tensor {
        let (channels, height, width) = input.chw
        precondition(channels == geometry.inputChannels,
                     "convolution \(geometry) got \(channels) input channels")
        let output = Tensor.featureMap(
            channels: geometry.outputChannels,
            height: geometry.outputSize(height), width: geometry.outputSize(width), zeroed: false)
        run(input.data, height: height, width: width, into: output.data)
        return output
    }

    /// Convolves the channel-wise concatenation of `parts` (`[1, C_i, H, W]` each, `Σ C_i = C_in`)
    /// without building it, as `self(Tensor.concatenatingChannels(parts))` would: a 1×1 convolution
    /// is a sum of GEMMs, one per part, accumulated in the output block. Other kernels concatenate.
    public func callAsFunction(concatenating parts: [Tensor]) -> Tensor {
        let g = geometry
        guard g.kernelSize == 1, g.stride == 1, g.padding == 0, g.groups == 1, let first = parts.first else {
            return self(Tensor.concatenatingChannels(parts))
        }
        let (_, height, width) = first.chw
        precondition(parts.allSatisfy { $0.chw.height == height && $0.chw.width == width }
                     && parts.reduce(0, { $0 + $1.chw.channels }) == g.inputChannels,
                     "convolution \(g) got parts \(parts.map(\.shape))")
        let output = Tensor.featureMap(channels: g.outputChannels, height: height, width: width, zeroed: false)
        pointwiseConvolution(parts.map { (UnsafePointer($0.data), $0.chw.channels) }, planeSize: height * width, into: output.data)
        return output
    }

    /// Convolves `C_in` planes of `height × width` into `C_out` planes at `output` (every output
    /// element is written).
    public func run(_ input: UnsafePointer<Float>, height: Int, width: Int, into output: UnsafeMutablePointer<Float>) {
        let g = geometry
        let planeSize = g.outputSize(height) * g.outputSize(width)
        filters.withUnsafeBufferPointer { weights in
            bias.withUnsafeBufferPointer { bias in
                guard let bias = bias.baseAddress else { return }
                if let winograd {
                    winograd.run(input, height: height, width: width, bias: bias, activation: activation, into: output)
                } else if let weights = weights.baseAddress, g.isDepthwise {
                    depthwiseConvolution(
                        input, channels: g.inputChannels, height: height, width: width, weights: weights,
                        kernelSize: g.kernelSize, stride: g.stride, padding: g.padding, into: output)
                    ComputeThreads.parallelFor(g.outputChannels) { c in
                        addBiasAndActivate(output + c * planeSize, count: planeSize, bias: bias[c], activation: activation)
                    }
                } else if g.kernelSize == 1 && g.stride == 1 && g.padding == 0 && g.groups == 1 {
                    pointwiseConvolution([(input, g.inputChannels)], planeSize: height * width, into: output)
                } else if let weights = weights.baseAddress {
                    blockedGEMMConvolution(input, height: height, width: width, weights: weights, bias: bias, into: output)
                }
            }
        }
    }

    /// `output = act(W · [part₀; part₁; …] + b)` for a 1×1 convolution, block by block over the
    /// positions: the GEMM reads the inputs in place, one `[C_out, C_i] x [C_i, block]` product per
    /// part accumulated into the output block, then the epilogue while the block is in cache.
    private func pointwiseConvolution(_ parts: [(data: UnsafePointer<Float>, channels: Int)], planeSize: Int,
                                      into output: UnsafeMutablePointer<Float>) {
        let g = geometry
        let blockSize = max(1, min(planeSize, positionsPerBlock ?? max(256, (64 << 10) / max(g.inputChannels, 1) / 16 * 16)))
        let blocks = (planeSize + blockSize - 1) / blockSize
        let threads = ComputeThreads.count
        let rowSplits = blocks >= threads ? 1 : min(threads, max(1, g.outputChannels / 16))
        filters.withUnsafeBufferPointer { weights in
            bias.withUnsafeBufferPointer { bias in
                guard let weights = weights.baseAddress, let bias = bias.baseAddress else { return }
                ComputeThreads.parallelFor(blocks * rowSplits) { task in
                    let block = task / rowSplits, split = task % rowSplits
                    let start = block * blockSize, count = min(blockSize, planeSize - start)
                    let rows = (g.outputChannels * split / rowSplits)..<(g.outputChannels * (split + 1) / rowSplits)
                    var firstChannel = 0
                    for (index, part) in parts.enumerated() {
                        // [rows, C_i] x [C_i, block] (+)-> [rows, block]
                        sgemm(m: rows.count, n: count, k: part.channels,
                              a: weights + rows.lowerBound * g.inputChannels + firstChannel, lda: g.inputChannels,
                              b: part.data + start, ldb: planeSize,
                              c: output + rows.lowerBound * planeSize + start, ldc: planeSize,
                              beta: index == 0 ? 0 : 1)
                        firstChannel += part.channels
                    }
                    for row in rows {
                        addBiasAndActivate(output + row * planeSize + start, count: count, bias: bias[row], activation: activation)
                    }
                }
            }
        }
    }

    /// `output = act(W · im2col(input) + b)`, block by block over the output positions; with fewer
    /// blocks than threads, the output channels are split too.
    private func blockedGEMMConvolution(
        _ input: UnsafePointer<Float>, height: Int, width: Int,
        weights: UnsafePointer<Float>, bias: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>
    ) {
        let g = geometry
        let planeSize = g.outputSize(height) * g.outputSize(width)
        let taps = g.kernelSize * g.kernelSize
        let groupInputs = g.inputChannels / g.groups, groupOutputs = g.outputChannels / g.groups
        let blockSize = max(1, min(planeSize, positionsPerBlock ?? max(256, (64 << 10) / max(g.filterSize, 1) / 16 * 16)))
        let blocks = (planeSize + blockSize - 1) / blockSize
        let threads = ComputeThreads.count
        let rowSplits = blocks >= threads ? 1 : min(threads, max(1, groupOutputs / 16))
        ComputeThreads.parallelFor(blocks * rowSplits) { task in
            let block = task / rowSplits, split = task % rowSplits
            let start = block * blockSize, count = min(blockSize, planeSize - start)
            let rows = (groupOutputs * split / rowSplits)..<(groupOutputs * (split + 1) / rowSplits)
            let columns = Tensor(uninitializedShape: [g.inputChannels * taps, count])
            im2col(input, channels: g.inputChannels, height: height, width: width, kernelSize: g.kernelSize,
                   stride: g.stride, padding: g.padding, positions: start..<(start + count), into: columns.data)
            for group in 0..<g.groups {
                let firstRow = group * groupOutputs + rows.lowerBound
                // [rows, C_in/g·k·k] x [C_in/g·k·k, block] -> [rows, block], rows of the output planeSize apart
                sgemm(m: rows.count, n: count, k: g.filterSize,
                      a: weights + firstRow * g.filterSize, lda: g.filterSize,
                      b: columns.data + group * groupInputs * taps * count, ldb: count,
                      c: output + firstRow * planeSize + start, ldc: planeSize)
                for row in firstRow..<(firstRow + rows.count) {
                    addBiasAndActivate(output + row * planeSize + start, count: count, bias: bias[row], activation: activation)
                }
            }
        }
    }
}
