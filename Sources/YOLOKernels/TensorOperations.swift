extension Tensor {
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
        addElementwise(data, other.data, count: count, into: output.data)
        return output
    }
}

/// `output[i] = a[i] + b[i]` for `count` floats, in vectors, split over the threads; `output` may be
/// `a` (an in-place sum).
public func addElementwise(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int, into output: UnsafeMutablePointer<Float>) {
    let chunks = max(1, min(ComputeThreads.count, count / 4096))
    ComputeThreads.parallelFor(chunks) { chunk in
        let start = count * chunk / chunks, end = count * (chunk + 1) / chunks
        let lanes = FloatVector.scalarCount, stride = MemoryLayout<Float>.stride
        var i = start
        while i + lanes <= end {
            let sum = UnsafeRawPointer(a).loadUnaligned(fromByteOffset: i * stride, as: FloatVector.self)
                + UnsafeRawPointer(b).loadUnaligned(fromByteOffset: i * stride, as: FloatVector.self)
            UnsafeMutableRawPointer(output).storeBytes(of: sum, toByteOffset: i * stride, as: FloatVector.self)
            i += lanes
        }
        for j in i..<end { output[j] = a[j] + b[j] }
    }
}
