/// A 2-D convolution with bias and a fused activation, the inference form of Ultralytics' `Conv`
/// (`nn.Conv2d` + folded `nn.BatchNorm2d` + `nn.SiLU`) and of a plain `nn.Conv2d`.
///
/// Fast path: a 1×1 stride-1 convolution is one GEMM on the input as it is; other kernels unfold the
/// input with `im2col` first; depthwise convolutions run as direct loops. The bias is written into
/// the output before the GEMM accumulates onto it (`beta = 1`), and the activation runs in the same
/// pass over each channel.
public struct Convolution: Sendable {
    public let geometry: ConvolutionGeometry
    /// `[C_out, C_in/groups · k · k]`, row-major (PyTorch's `[C_out, C_in/groups, k, k]` flattened).
    public let weights: [Float]
    /// `[C_out]`.
    public let bias: [Float]
    public let activation: Activation

    public init(geometry: ConvolutionGeometry, weights: [Float], bias: [Float], activation: Activation) {
        precondition(weights.count == geometry.outputChannels * geometry.filterSize,
                     "\(weights.count) weights for convolution \(geometry)")
        precondition(bias.count == geometry.outputChannels, "\(bias.count) biases for convolution \(geometry)")
        self.geometry = geometry
        self.weights = weights
        self.bias = bias
        self.activation = activation
    }

    /// Number of parameters (weights and biases).
    public var parameterCount: Int { weights.count + bias.count }

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

    /// Convolves `C_in` planes of `height × width` into `C_out` planes at `output` (every output
    /// element is written).
    public func run(_ input: UnsafePointer<Float>, height: Int, width: Int, into output: UnsafeMutablePointer<Float>) {
        let g = geometry
        let planeSize = g.outputSize(height) * g.outputSize(width)
        weights.withUnsafeBufferPointer { weights in
            guard let weights = weights.baseAddress else { return }
            if g.isDepthwise {
                depthwiseConvolution(
                    input, channels: g.inputChannels, height: height, width: width, weights: weights,
                    kernelSize: g.kernelSize, stride: g.stride, padding: g.padding, into: output)
            } else {
                gemmConvolution(input, height: height, width: width, weights: weights, into: output)
            }
        }
        // Epilogue: bias and activation in one pass per channel.
        bias.withUnsafeBufferPointer { bias in
            ComputeThreads.parallelFor(g.outputChannels) { c in
                addBiasAndActivate(output + c * planeSize, count: planeSize, bias: bias[c], activation: activation)
            }
        }
    }

    /// `output = W · im2col(input)`, one GEMM per group.
    private func gemmConvolution(
        _ input: UnsafePointer<Float>, height: Int, width: Int,
        weights: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>
    ) {
        let g = geometry
        let planeSize = g.outputSize(height) * g.outputSize(width)
        let groupInputs = g.inputChannels / g.groups, groupOutputs = g.outputChannels / g.groups
        let isPointwise = g.kernelSize == 1 && g.stride == 1 && g.padding == 0
        let columns: UnsafeMutablePointer<Float>
        if isPointwise {
            columns = UnsafeMutablePointer(mutating: input)  // the input already is [C_in, H·W]
        } else {
            columns = .allocate(capacity: g.inputChannels * g.kernelSize * g.kernelSize * planeSize)
            im2col(input, channels: g.inputChannels, height: height, width: width,
                   kernelSize: g.kernelSize, stride: g.stride, padding: g.padding, into: columns)
        }
        defer { if !isPointwise { columns.deallocate() } }
        for group in 0..<g.groups {
            // [C_out/g, C_in/g·k·k] x [C_in/g·k·k, OH·OW] -> [C_out/g, OH·OW]
            sgemm(m: groupOutputs, n: planeSize, k: g.filterSize,
                  a: weights + group * groupOutputs * g.filterSize, lda: g.filterSize,
                  b: columns + group * groupInputs * g.kernelSize * g.kernelSize * planeSize, ldb: planeSize,
                  c: output + group * groupOutputs * planeSize, ldc: planeSize)
        }
    }
}
