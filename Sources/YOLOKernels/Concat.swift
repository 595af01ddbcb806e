extension Tensor {
    /// Concatenates `[1, C_i, H, W]` feature maps along the channel axis, as `torch.cat(xs, 1)`.
    public static func concatenatingChannels(_ parts: [Tensor]) -> Tensor {
        precondition(!parts.isEmpty, "nothing to concatenate")
        let (_, height, width) = parts[0].chw
        precondition(parts.allSatisfy { $0.chw.height == height && $0.chw.width == width },
                     "concatenating feature maps of different sizes: \(parts.map(\.shape))")
        let output = Tensor.featureMap(channels: parts.reduce(0) { $0 + $1.chw.channels }, height: height, width: width, zeroed: false)
        // One task per output channel: (part, channel within it).
        let planeSize = height * width
        let sources = parts.flatMap { part in (0..<part.chw.channels).map { part.data + $0 * planeSize } }
        sources.withUnsafeBufferPointer { sources in
            ComputeThreads.parallelFor(sources.count) { c in
                (output.data + c * planeSize).update(from: sources[c], count: planeSize)
            }
        }
        return output
    }

    /// Channels `range` of a `[1, C, H, W]` feature map, as a view that shares this tensor's storage
    /// (channels are contiguous planes, so a channel range is contiguous too): `torch.split`/`chunk`.
    public func channels(_ range: Range<Int>) -> Tensor {
        let (channels, height, width) = chw
        precondition(range.lowerBound >= 0 && range.upperBound <= channels, "channels \(range) of \(shape)")
        return Tensor(borrowing: channel(range.lowerBound), shape: [1, range.count, height, width], keepAlive: self)
    }

    /// Element-wise `self + other` into a new tensor of the same shape (residual shortcuts).
    public func adding(_ other: Tensor) -> Tensor {
        precondition(shape == other.shape, "adding \(shape) and \(other.shape)")
        let output = Tensor(uninitializedShape: shape)
        let chunks = max(1, min(ComputeThreads.count, count / 4096))
        ComputeThreads.parallelFor(chunks) { chunk in
            for i in (count * chunk / chunks)..<(count * (chunk + 1) / chunks) { output.data[i] = data[i] + other.data[i] }
        }
        return output
    }
}
