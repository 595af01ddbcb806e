import YOLOTensor

/// A 2-D convolution with bias and a fused activation, the inference form of Ultralytics' `Conv`
/// (`nn.Conv2d` + folded `nn.BatchNorm2d` + `nn.SiLU`) and of a plain `nn.Conv2d`.
///
/// Fast path: the filters are packed for `packedGEMM` at load; the output positions are cut into
/// blocks that run in parallel; for each block a 1×1 stride-1 convolution is a GEMM reading the input
/// as it is, other kernels unfold the block's input with `im2col` into a cache-sized buffer first,
/// and the GEMM applies the bias and activation to each tile before storing it. 3×3 convolutions
/// run by Winograd at stride 1; at stride 2, the four corner taps by Winograd and the other five by
/// a GEMM from the input's phases, which adds the bias and activation (with fewer than 8 input or
/// output channels: that GEMM alone, over all nine); depthwise ones as direct loops.
package struct Convolution: Sendable {
    package let geometry: ConvolutionGeometry
    /// The filters as the depthwise path reads them: `[C_out, k · k]`, row-major (PyTorch's
    /// `[C_out, 1, k, k]` flattened). Empty for the other paths, which keep a packed copy.
    package let depthwiseFilters: [Float]
    /// One packed `[C_out/groups, C_in/groups · k · k]` matrix per group (PyTorch's
    /// `[C_out, C_in/groups, k, k]` flattened, cut by groups), for the GEMM paths; empty for the
    /// depthwise, Winograd and phase-split paths.
    package let packedFilters: [PackedMatrix]
    /// `[C_out]`.
    package let bias: [Float]
    package let activation: Activation
    /// Output positions per block; by default as many as keep a block's columns near 256 KiB.
    package let positionsPerBlock: Int?
    /// The Winograd form of a 3×3 convolution (stride 1), or of its corner taps (stride 2), when it
    /// pays (see `init`).
    package let winograd: WinogradConvolution?
    /// The phase-split form of a 3×3 stride-2 convolution: all its taps, or, after `winograd`, the
    /// other five (see `init`).
    package let phaseSplit: PhaseSplitConvolution?

    /// - Parameters:
    ///   - positionsPerBlock: forces the block size of the GEMM paths (tests use small odd sizes
    ///     to cover blocks that start and end inside output rows and tiles narrower than a vector).
    ///   - allowsWinograd: run 3×3 convolutions with at least 8 output channels and 8 input channels
    ///     (stride 1) or 32 (stride 2, their corner taps) by Winograd (the default); `false` keeps them
    ///     on the im2col path (stride 1) or the phase-split one (stride 2).
    package init(geometry: ConvolutionGeometry, weights: [Float], bias: [Float], activation: Activation,
                positionsPerBlock: Int? = nil, allowsWinograd: Bool = true) {
        precondition(weights.count == geometry.outputChannels * geometry.filterSize,
                     "\(weights.count) weights for convolution \(geometry)")
        precondition(bias.count == geometry.outputChannels, "\(bias.count) biases for convolution \(geometry)")
        self.geometry = geometry
        self.bias = bias
        self.activation = activation
        self.positionsPerBlock = positionsPerBlock
        // At stride 2 the corner taps' transforms cost about what they save below 32 input channels
        // (YOLO11n's second layer, 16: 1.13 times the phase split's time with the avx512 set, 0.98
        // with avx2; docs/performance.md).
        let suitsWinograd = geometry.kernelSize == 3 && geometry.padding == 1 && geometry.groups == 1 && geometry.outputChannels >= 8
            && (geometry.stride == 1 && geometry.inputChannels >= 8 || geometry.stride == 2 && geometry.inputChannels >= 32)
        let suitsPhaseSplit = geometry.kernelSize == 3 && geometry.stride == 2 && geometry.padding == 1 && geometry.groups == 1
        (winograd, phaseSplit, depthwiseFilters, packedFilters) = if allowsWinograd && suitsWinograd {
            (WinogradConvolution(inputChannels: geometry.inputChannels, outputChannels: geometry.outputChannels, stride: geometry.stride,
                                 weights: weights),
             geometry.stride == 2 ? PhaseSplitConvolution(inputChannels: geometry.inputChannels, outputChannels: geometry.outputChannels,
                                                          weights: weights, taps: PhaseSplitConvolution.edgeAndCentreTaps) : nil,
             [], [])
        } else if suitsPhaseSplit {
            (nil, PhaseSplitConvolution(inputChannels: geometry.inputChannels, outputChannels: geometry.outputChannels, weights: weights), [], [])
        } else if geometry.isDepthwise {
            (nil, nil, weights, [])
        } else {
            (nil, nil, [], weights.withUnsafeBufferPointer { weights in
                let groupOutputs = geometry.outputChannels / geometry.groups
                return (0..<geometry.groups).map { group in
                    PackedMatrix(rows: groupOutputs, depth: geometry.filterSize,
                                 matrix: weights.baseAddress! + group * groupOutputs * geometry.filterSize,
                                 rowStride: geometry.filterSize)
                }
            })
        }
    }

    /// Number of parameters (weights and biases).
    package var parameterCount: Int { geometry.outputChannels * geometry.filterSize + bias.count }

    /// Convolves a `[1, C_in, H, W]` feature map into a new `[1, C_out, OH, OW]` one.
    package func callAsFunction(_ input: Tensor, kernels: KernelSet = .active) -> Tensor { convolve(input, adding: nil, kernels: kernels) }

    /// `self(input)` plus `residual` (a shortcut connection, of the output's shape), added in the
    /// convolution's epilogue while each block is in cache (Winograd) or in one pass after it, not
    /// as a third tensor.
    package func callAsFunction(_ input: Tensor, adding residual: Tensor, kernels: KernelSet = .active) -> Tensor {
        convolve(input, adding: residual, kernels: kernels)
    }

    private func convolve(_ input: Tensor, adding residual: Tensor?, kernels: KernelSet) -> Tensor {
        let (channels, height, width) = input.chw
        precondition(channels == geometry.inputChannels, "convolution \(geometry) got \(channels) input channels")
        let output = Tensor.featureMap(
            channels: geometry.outputChannels,
            height: geometry.outputSize(height), width: geometry.outputSize(width), zeroed: false)
        if let residual {
            precondition(residual.shape == output.shape, "adding \(residual.shape) to convolution output \(output.shape)")
        }
        kernels.convolveKernel(self, input.data, height, width, residual.map { UnsafePointer($0.data) }, output.data)
        return output
    }

    /// Convolves `C_in` planes of `height × width` into `C_out` planes at `output` (every output
    /// element is written), adding `residual` (as many floats as the output) to the result if given.
    package func run(_ input: UnsafePointer<Float>, height: Int, width: Int, adding residual: UnsafePointer<Float>? = nil,
                    into output: UnsafeMutablePointer<Float>, kernels: KernelSet = .active) {
        kernels.convolveKernel(self, input, height, width, residual, output)
    }
}
