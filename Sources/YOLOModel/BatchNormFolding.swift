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
    // r per output channel, for the weights and the bias alike.
    let inverseDeviations = (0..<channels).map { c in 1 / (variance[c] + epsilon).squareRoot() }
    // Every float written once (no zero fill first): a model load folds millions of weights.
    let folded = [Float](unsafeUninitializedCapacity: weights.count) { folded, count in
        for c in 0..<channels {
            let scale = gamma[c] * inverseDeviations[c]
            for i in c * filterSize..<(c + 1) * filterSize { folded.initializeElement(at: i, to: weights[i] * scale) }
        }
        count = weights.count
    }
    let bias = (0..<channels).map { c in (0 - mean[c]) * inverseDeviations[c] * gamma[c] + beta[c] }
    return (folded, bias)
}
