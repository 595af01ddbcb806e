import YOLOKernels

/// `nn.Upsample(scale_factor: s, mode: "nearest")`.
struct Upsample: Module {
    let factor: Int

    func callAsFunction(_ x: Tensor) -> Tensor { x.upsampledNearest(factor: factor) }

    /// The upsampling is left to the consumer (a 1×1 convolution reads it at the small size).
    func callAsFunction(_ x: FeatureMap) -> FeatureMap { x.upsampled(factor: factor) }

    var parameterCount: Int { 0 }

    func outputSize(_ size: (Int, Int)) -> (Int, Int) { (size.0 * factor, size.1 * factor) }

    func flops(_ size: (Int, Int)) -> Int { 0 }
}
