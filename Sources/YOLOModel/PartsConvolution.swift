import YOLOKernels
import YOLOTensor

/// A rewrite of the neck's `Upsample → Concat → 1×1 Conv` (YOLO11's `C3k2.cv1` after each
/// upsampling): the convolution reads the parts of a `FeatureMap` where they lie, and multiplies the
/// upsampled parts at their own size.
///
/// A 1×1 convolution is a sum of products, one per part, each with its own columns of the filters;
/// and upsampling commutes with it, `W · up(a) = up(W · a)`. So when the upsampled parts come first
/// or last, all by one factor, their product is computed small, upsampled into the output, and the
/// other parts' product is added to it with the bias before the activation: a quarter of their
/// arithmetic at factor 2, and neither the upsampled copy nor the concatenation is written. Other
/// convolutions, and other mixes of parts, convolve `x.tensor`.
extension Convolution {
    /// `self(x.tensor)`, computed without writing `x` out where the rewrite applies.
    package func callAsFunction(_ x: FeatureMap, kernels: KernelSet = .active) -> Tensor {
        let g = geometry
        let isPointwise = g.kernelSize == 1 && g.stride == 1 && g.padding == 0 && g.groups == 1
        let factor = x.parts.map(\.upsampling).max() ?? 1
        guard isPointwise, x.parts.count > 1 || factor > 1 else { return self(x.tensor, kernels: kernels) }
        precondition(x.channels == g.inputChannels, "convolution \(g) got \(x.channels) input channels")
        let output = Tensor.featureMap(channels: g.outputChannels, height: x.height, width: x.width, zeroed: false)
        func pieces(_ parts: ArraySlice<FeatureMap.Part>) -> [(data: UnsafePointer<Float>, channels: Int)] {
            parts.map { (UnsafePointer($0.tensor.data), $0.channels) }
        }
        guard factor > 1 else {
            // Concatenated parts at one size: one GEMM reads them in turn.
            kernels.pointwiseConvolution(self, filters: packedFilters[0], parts: pieces(x.parts[...]),
                                         planeSize: x.height * x.width, into: output.data)
            return output
        }
        // The small parts (upsampled by `factor`) must be a run at the start or the end, the others as they are.
        let smallCount = x.parts.count { $0.upsampling == factor }
        let smallFirst = x.parts.prefix(smallCount).allSatisfy { $0.upsampling == factor }
        guard x.parts.allSatisfy({ $0.upsampling == factor || $0.upsampling == 1 })
              && (smallFirst || x.parts.suffix(smallCount).allSatisfy { $0.upsampling == factor })
        else { return self(x.tensor, kernels: kernels) }
        let (small, large) = smallFirst ? (x.parts.prefix(smallCount), x.parts.dropFirst(smallCount))
                                        : (x.parts.suffix(smallCount), x.parts.dropLast(smallCount))
        let (smallHeight, smallWidth) = (x.height / factor, x.width / factor)
        let product = Tensor.featureMap(channels: g.outputChannels, height: smallHeight, width: smallWidth, zeroed: false)
        guard !large.isEmpty else {
            // Only upsampled parts: the whole convolution small, then upsampled (the same values).
            kernels.pointwiseConvolution(self, filters: packedFilters[0], parts: pieces(small),
                                         planeSize: smallHeight * smallWidth, into: product.data)
            kernels.upsampleNearest(product.data, channels: g.outputChannels, height: smallHeight, width: smallWidth,
                                    factor: factor, into: output.data)
            return output
        }
        let smallChannels = small.reduce(0) { $0 + $1.channels }, largeChannels = g.inputChannels - smallChannels
        let (smallColumns, largeColumns) = smallFirst ? (0..<smallChannels, smallChannels..<g.inputChannels)
                                                      : (largeChannels..<g.inputChannels, 0..<largeChannels)
        // [C_out, C_small] x [C_small, h·w], upsampled to [C_out, H·W]
        kernels.pointwiseConvolution(self, filters: packedFilters[0].columns(smallColumns), parts: pieces(small),
                                     planeSize: smallHeight * smallWidth, epilogue: GEMMEpilogue.none, into: product.data)
        kernels.upsampleNearest(product.data, channels: g.outputChannels, height: smallHeight, width: smallWidth,
                                factor: factor, into: output.data)
        // act(that + [C_out, C_large] x [C_large, H·W] + b)
        bias.withUnsafeBufferPointer { bias in
            guard let bias = bias.baseAddress else { return }  // a convolution has one bias per output channel
            kernels.pointwiseConvolution(self, filters: packedFilters[0].columns(largeColumns), parts: pieces(large),
                                         planeSize: x.height * x.width,
                                         epilogue: .accumulateBiasActivation(bias: bias, activation: activation), into: output.data)
        }
        return output
    }
}
