extension Tensor {
    /// Channels `range` of a `[1, C, H, W]` feature map, as a view that shares this tensor's storage
    /// (channels are contiguous planes, so a channel range is contiguous too): `torch.split`/`chunk`.
    package func channels(_ range: Range<Int>) -> Tensor {
        let (channels, height, width) = chw
        precondition(range.lowerBound >= 0 && range.upperBound <= channels, "channels \(range) of \(shape)")
        return Tensor(borrowing: channel(range.lowerBound), shape: [1, range.count, height, width], keepAlive: self)
    }

    /// Element-wise `self + other` into a new tensor of the same shape (residual shortcuts).
    package func adding(_ other: Tensor, kernels: KernelSet = .active) -> Tensor {
        precondition(shape == other.shape, "adding \(shape) and \(other.shape)")
        let output = Tensor(uninitializedShape: shape)
        kernels.addElementwise(data, other.data, count: count, into: output.data)
        return output
    }
}
