/// Folds an inference-mode BatchNorm into the convolution before it, as Ultralytics'
/// `fuse_conv_and_bn` does through `torch.nn.utils.fuse_conv_bn_weights` (in the same float32 order
/// of operations): with `r = 1/√(σ² + ε)`, `w' = w · (γ·r)` per output channel and `b' = (0 − μ)·r·γ + β`.
///
/// - Parameters:
///   - weights: `[C_out, n]` convolution weights, row-major.
///   - gamma, beta, mean, variance: `[C_out]` BatchNorm parameters and running statistics.
/// - Returns: the folded weights `[C_out, n]` and bias `[C_out]`.
func foldBatchNorm(
    weights: UnsafeBufferPointer<Float>, gamma: UnsafeBufferPointer<Float>, beta: UnsafeBufferPointer<Float>,
    mean: UnsafeBufferPointer<Float>, variance: UnsafeBufferPointer<Float>, epsilon: Float
) -> (weights: [Float], bias: [Float]) {
    let channels = gamma.count
    let filterSize = weights.count / channels
    var bias = [Float]()
    bias.reserveCapacity(channels)
    // Every float written once (no zero fill first): a model load folds millions of weights.
    let folded = [Float](unsafeUninitializedCapacity: weights.count) { folded, count in
        for c in 0..<channels {
            let inverseDeviation = 1 / (variance[c] + epsilon).squareRoot()
            let scale = gamma[c] * inverseDeviation
            for i in c * filterSize..<(c + 1) * filterSize { folded.initializeElement(at: i, to: weights[i] * scale) }
            bias.append((0 - mean[c]) * inverseDeviation * gamma[c] + beta[c])
        }
        count = weights.count
    }
    return (folded, bias)
}
