import YOLOKernels

/// Ultralytics' `Conv` (`ultralytics.nn.modules.conv.Conv`): `Conv2d(bias=False)` → `BatchNorm2d` →
/// activation, with the BatchNorm folded into the convolution at load.
struct Conv: Module {
    let convolution: Convolution

    /// Loads `conv.weight` `[C_out, C_in/groups, k, k]` and `bn.{weight,bias,running_mean,running_var}`
    /// `[C_out]` from `weights`, and folds them.
    init(_ weights: WeightScope, inputChannels: Int, outputChannels: Int, kernelSize: Int = 1, stride: Int = 1, groups: Int = 1) throws {
        let geometry = ConvolutionGeometry(
            inputChannels: inputChannels, outputChannels: outputChannels,
            kernelSize: kernelSize, stride: stride, groups: groups)
        let kernel = try weights.tensor("conv.weight", shape: [outputChannels, inputChannels / groups, kernelSize, kernelSize])
        let channelShape = [outputChannels]
        let gamma = try weights.tensor("bn.weight", shape: channelShape)
        let beta = try weights.tensor("bn.bias", shape: channelShape)
        let mean = try weights.tensor("bn.running_mean", shape: channelShape)
        let variance = try weights.tensor("bn.running_var", shape: channelShape)
        let folded = foldBatchNorm(
            weights: UnsafeBufferPointer(kernel.buffer), gamma: UnsafeBufferPointer(gamma.buffer),
            beta: UnsafeBufferPointer(beta.buffer), mean: UnsafeBufferPointer(mean.buffer),
            variance: UnsafeBufferPointer(variance.buffer), epsilon: weights.loader.batchNormEpsilon)
        self.convolution = Convolution(
            geometry: geometry, weights: folded.weights, bias: folded.bias, activation: try weights.activation())
    }

    func callAsFunction(_ x: Tensor) -> Tensor { convolution(x) }

    /// `self(x) + residual`, the sum taken in the convolution's epilogue.
    func callAsFunction(_ x: Tensor, adding residual: Tensor) -> Tensor { convolution(x, adding: residual) }

    /// `self(x.tensor)`, reading a 1×1 convolution's input parts where they lie (see `Convolution`).
    func callAsFunction(_ x: FeatureMap) -> FeatureMap { FeatureMap(convolution(x)) }

    /// `self(cat(parts, 1))` without building the concatenation.
    func callAsFunction(concatenating parts: [Tensor]) -> Tensor { convolution(FeatureMap(concatenating: parts)) }

    var parameterCount: Int { convolution.parameterCount }

    func outputSize(_ size: (Int, Int)) -> (Int, Int) {
        (convolution.geometry.outputSize(size.0), convolution.geometry.outputSize(size.1))
    }

    func flops(_ size: (Int, Int)) -> Int { convolution.flops(height: size.0, width: size.1) }

    func scratchBytes(_ size: (Int, Int), running: Int) -> Int { convolution.scratchBytes(height: size.0, width: size.1, running: running) }
}
