import YOLOTensor

/// `nn.ConvTranspose2d(C_in, C_out, k, stride: k, padding: 0)` with bias, the 2× upsampling of
/// Ultralytics' `Proto`.
///
/// With the stride equal to the kernel, each input pixel writes its own `k × k` output block and no
/// two blocks overlap, so the operation is a 1×1 convolution to `C_out · k²` channels (one per
/// output channel and kernel offset, run by the packed GEMM) followed by a depth-to-space scatter.
package struct TransposedConvolution: Sendable {
    package let inputChannels: Int
    package let outputChannels: Int
    /// The kernel side, equal to the stride: each side grows by this factor.
    package let factor: Int
    /// `C_in → C_out · k²`, output channel `(o · k + dy) · k + dx` holding offset `(dy, dx)` of channel `o`.
    let pointwise: Convolution

    /// - Parameters:
    ///   - weights: PyTorch's `[C_in, C_out, k, k]`, row-major.
    ///   - bias: `[C_out]`.
    package init(inputChannels: Int, outputChannels: Int, factor: Int, weights: [Float], bias: [Float]) {
        precondition(factor >= 1 && weights.count == inputChannels * outputChannels * factor * factor && bias.count == outputChannels,
                     "\(weights.count) weights, \(bias.count) biases for a \(inputChannels)→\(outputChannels) ×\(factor) transposed convolution")
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        self.factor = factor
        let offsets = factor * factor
        // [C_in, C_out, k, k] -> [C_out · k · k, C_in]
        var pointwiseWeights = [Float](repeating: 0, count: weights.count)
        for i in 0..<inputChannels {
            for j in 0..<(outputChannels * offsets) {
                pointwiseWeights[j * inputChannels + i] = weights[i * outputChannels * offsets + j]
            }
        }
        pointwise = Convolution(
            geometry: ConvolutionGeometry(inputChannels: inputChannels, outputChannels: outputChannels * offsets, kernelSize: 1),
            weights: pointwiseWeights, bias: bias.flatMap { Array(repeating: $0, count: offsets) }, activation: .identity)
    }

    /// `[1, C_in, H, W]` → `[1, C_out, k·H, k·W]`.
    package func callAsFunction(_ input: Tensor, kernels: KernelSet = .active) -> Tensor {
        let (channels, height, width) = input.chw
        precondition(channels == inputChannels, "transposed convolution \(inputChannels)→\(outputChannels) got \(channels) channels")
        let blocks = pointwise(input, kernels: kernels)  // [C_out · k², H, W]
        let k = factor, planeSize = height * width, outputWidth = width * k
        let output = Tensor.featureMap(channels: outputChannels, height: height * k, width: outputWidth, zeroed: false)
        let source = UnsafePointer(blocks.data), target = output.data
        withExtendedLifetime(blocks) { ComputeThreads.parallelFor(outputChannels) { o in
            let plane = target + o * planeSize * k * k
            for dy in 0..<k {
                for dx in 0..<k {
                    let offsetPlane = source + ((o * k + dy) * k + dx) * planeSize
                    for y in 0..<height {
                        let row = plane + (y * k + dy) * outputWidth + dx
                        let sourceRow = offsetPlane + y * width
                        for x in 0..<width { row[x * k] = sourceRow[x] }
                    }
                }
            }
        } }
        return output
    }

    /// Weights and biases.
    package var parameterCount: Int { inputChannels * outputChannels * factor * factor + outputChannels }

    /// Floating-point operations for an input of `height × width` (a multiply-add counts two).
    package func flops(height: Int, width: Int) -> Int { pointwise.flops(height: height, width: width) }
}
