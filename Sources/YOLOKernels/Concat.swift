extension Tensor {
    /// Concatenates `[1, C_i, H, W]` feature maps along the channel axis, as `torch.cat(xs, 1)`.
    public static func concatenatingChannels(_ parts: [Tensor]) -> Tensor {
        precondition(!parts.isEmpty, "nothing to concatenate")
        let (_, height, width) = parts[0].chw
        precondition(parts.allSatisfy { $0.chw.height == height && $0.chw.width == width },
                     "concatenating feature maps of different sizes: \(parts.map(\.shape))")
        let output = Tensor.featureMap(channels: parts.reduce(0) { $0 + $1.chw.channels }, height: height, width: width)
        var destination = output.data
        for part in parts {
            destination.update(from: part.data, count: part.count)
            destination += part.count
        }
        return output
    }

    /// Channels `[start, start + count)` of a `[1, C, H, W]` feature map, copied.
    public func channels(_ range: Range<Int>) -> Tensor {
        let (channels, height, width) = chw
        precondition(range.lowerBound >= 0 && range.upperBound <= channels, "channels \(range) of \(shape)")
        let output = Tensor.featureMap(channels: range.count, height: height, width: width)
        output.data.update(from: channel(range.lowerBound), count: output.count)
        return output
    }

    /// Element-wise `self + other` into a new tensor of the same shape (residual shortcuts).
    public func adding(_ other: Tensor) -> Tensor {
        precondition(shape == other.shape, "adding \(shape) and \(other.shape)")
        let output = Tensor(shape: shape)
        for i in 0..<count { output.data[i] = data[i] + other.data[i] }
        return output
    }
}
