/// The shape of a 2-D convolution or pooling window, as `nn.Conv2d` / `nn.MaxPool2d` define it
/// (square kernel, equal stride and zero padding on both axes, dilation 1).
package struct ConvolutionGeometry: Sendable, Equatable, CustomStringConvertible {
    package var inputChannels: Int
    package var outputChannels: Int
    package var kernelSize: Int
    package var stride: Int
    package var padding: Int
    package var groups: Int

    package init(inputChannels: Int, outputChannels: Int, kernelSize: Int, stride: Int = 1, padding: Int? = nil, groups: Int = 1) {
        precondition(kernelSize > 0 && stride > 0 && groups > 0, "invalid convolution geometry")
        precondition(inputChannels % groups == 0 && outputChannels % groups == 0,
                     "channels \(inputChannels)→\(outputChannels) not divisible by groups \(groups)")
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        self.kernelSize = kernelSize
        self.stride = stride
        self.padding = padding ?? kernelSize / 2  // Ultralytics' autopad for odd kernels
        self.groups = groups
    }

    /// The output side for an input side, as PyTorch computes it.
    package func outputSize(_ inputSize: Int) -> Int {
        (inputSize + 2 * padding - kernelSize) / stride + 1
    }

    /// Elements in one output channel's filter: `(C_in / groups) · k · k`.
    package var filterSize: Int { inputChannels / groups * kernelSize * kernelSize }

    /// True for a depthwise convolution: one filter per channel.
    package var isDepthwise: Bool { groups == inputChannels && groups == outputChannels && groups > 1 }

    package var description: String {
        "\(inputChannels)→\(outputChannels) k\(kernelSize) s\(stride) p\(padding) g\(groups)"
    }
}

extension Convolution {
    /// Floating-point operations for an input of `height × width` (a multiply-add counts two).
    package func flops(height: Int, width: Int) -> Int {
        2 * geometry.outputChannels * geometry.outputSize(height) * geometry.outputSize(width) * geometry.filterSize
    }
}
