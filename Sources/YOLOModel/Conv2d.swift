import YOLOKernels

/// A plain `nn.Conv2d` with bias and no activation (the last convolution of each Detect branch).
struct Conv2d: Module {
    let convolution: Convolution

    /// Loads `weight` `[C_out, C_in, k, k]` and `bias` `[C_out]`.
    init(_ weights: WeightScope, inputChannels: Int, outputChannels: Int, kernelSize: Int = 1) throws {
        let kernel = try weights.tensor("weight", shape: [outputChannels, inputChannels, kernelSize, kernelSize])
        let bias = try weights.tensor("bias", shape: [outputChannels])
        self.convolution = Convolution(
            geometry: ConvolutionGeometry(inputChannels: inputChannels, outputChannels: outputChannels, kernelSize: kernelSize),
            weights: kernel.values, bias: bias.values, activation: .identity)
    }

    func callAsFunction(_ x: Tensor) -> Tensor { convolution(x) }

    var parameterCount: Int { convolution.parameterCount }

    func outputSize(_ size: (Int, Int)) -> (Int, Int) {
        (convolution.geometry.outputSize(size.0), convolution.geometry.outputSize(size.1))
    }

    func flops(_ size: (Int, Int)) -> Int { convolution.flops(height: size.0, width: size.1) }

    func scratchBytes(_ size: (Int, Int), running: Int) -> Int { convolution.scratchBytes(height: size.0, width: size.1, running: running) }
}
