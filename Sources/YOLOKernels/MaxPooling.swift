import YOLOTensor

extension Tensor {
    /// `nn.MaxPool2d(kernelSize, stride, padding)` on a `[1, C, H, W]` feature map.
    package func maxPooled(kernelSize: Int, stride: Int = 1, padding: Int, kernels: KernelSet = .active) -> Tensor {
        let (channels, height, width) = chw
        let output = Tensor.featureMap(
            channels: channels,
            height: (height + 2 * padding - kernelSize) / stride + 1,
            width: (width + 2 * padding - kernelSize) / stride + 1, zeroed: false)
        kernels.maxPool2d(data, channels: channels, height: height, width: width,
                  kernelSize: kernelSize, stride: stride, padding: padding, into: output.data)
        return output
    }
}
