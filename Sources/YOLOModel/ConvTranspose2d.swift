import YOLOKernels

/// A plain `nn.ConvTranspose2d` with bias, kernel equal to its stride and no padding (Proto's 2×
/// upsampling), as a block of the network.
struct ConvTranspose2d: Module {
    let transposed: TransposedConvolution

    /// Loads `weight` `[C_in, C_out, k, k]` and `bias` `[C_out]`.
    init(_ weights: WeightScope, inputChannels: Int, outputChannels: Int, factor: Int) throws {
        let kernel = try weights.tensor("weight", shape: [inputChannels, outputChannels, factor, factor])
        let bias = try weights.tensor("bias", shape: [outputChannels])
        transposed = TransposedConvolution(inputChannels: inputChannels, outputChannels: outputChannels, factor: factor,
                                           weights: kernel.values, bias: bias.values)
    }

    func callAsFunction(_ x: Tensor) -> Tensor { transposed(x) }

    var parameterCount: Int { transposed.parameterCount }

    func outputSize(_ size: (Int, Int)) -> (Int, Int) { (size.0 * transposed.factor, size.1 * transposed.factor) }

    func flops(_ size: (Int, Int)) -> Int { transposed.flops(height: size.0, width: size.1) }
}
