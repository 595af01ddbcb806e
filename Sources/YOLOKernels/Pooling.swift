/// Max pooling over `k × k` windows with implicit −∞ padding, as `nn.MaxPool2d(k, stride, padding)`.
///
/// - Parameters:
///   - input: `channels` planes of `height × width`.
///   - output: `channels` planes of `OH × OW`.
public func maxPool2d(
    _ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
    kernelSize k: Int, stride: Int, padding: Int,
    into output: UnsafeMutablePointer<Float>
) {
    let outputHeight = (height + 2 * padding - k) / stride + 1
    let outputWidth = (width + 2 * padding - k) / stride + 1
    ComputeThreads.parallelFor(channels) { c in
        let plane = input + c * height * width
        let result = output + c * outputHeight * outputWidth
        if stride == 1 {
            separableMaxPool(plane, height: height, width: width, kernelSize: k, padding: padding, into: result)
            return
        }
        result.update(repeating: -.infinity, count: outputHeight * outputWidth)
        for ky in 0..<k {
            for kx in 0..<k {
                let first = max(0, (padding - kx + stride - 1) / stride)
                let last = min(outputWidth, (width + padding - kx + stride - 1) / stride)
                guard first < last else { continue }
                for oy in 0..<outputHeight {
                    let y = oy * stride - padding + ky
                    guard y >= 0 && y < height else { continue }
                    let source = plane + y * width - padding + kx
                    let destination = result + oy * outputWidth
                    for ox in first..<last { destination[ox] = max(destination[ox], source[ox * stride]) }
                }
            }
        }
    }
}

/// Stride-1 max pooling of one plane as two passes, the maximum over each row window and then over
/// each column window of those (`2k` comparisons per output instead of `k²`); same result, since
/// max is associative.
private func separableMaxPool(_ plane: UnsafePointer<Float>, height: Int, width: Int, kernelSize k: Int, padding: Int,
                              into result: UnsafeMutablePointer<Float>) {
    let outputHeight = height + 2 * padding - k + 1, outputWidth = width + 2 * padding - k + 1
    let rows = Tensor(uninitializedShape: [height, outputWidth])  // row-window maxima
    for y in 0..<height {
        let source = plane + y * width, destination = rows.data + y * outputWidth
        destination.update(repeating: -.infinity, count: outputWidth)
        for kx in 0..<k {
            let first = max(0, padding - kx), last = min(outputWidth, width + padding - kx)
            guard first < last else { continue }
            let shifted = source - padding + kx
            for ox in first..<last { destination[ox] = max(destination[ox], shifted[ox]) }
        }
    }
    result.update(repeating: -.infinity, count: outputHeight * outputWidth)
    for oy in 0..<outputHeight {
        let destination = result + oy * outputWidth
        for ky in 0..<k {
            let y = oy - padding + ky
            guard y >= 0 && y < height else { continue }
            let source = rows.data + y * outputWidth
            for ox in 0..<outputWidth { destination[ox] = max(destination[ox], source[ox]) }
        }
    }
}

extension Tensor {
    /// `nn.MaxPool2d(kernelSize, stride, padding)` on a `[1, C, H, W]` feature map.
    public func maxPooled(kernelSize: Int, stride: Int = 1, padding: Int) -> Tensor {
        let (channels, height, width) = chw
        let output = Tensor.featureMap(
            channels: channels,
            height: (height + 2 * padding - kernelSize) / stride + 1,
            width: (width + 2 * padding - kernelSize) / stride + 1, zeroed: false)
        maxPool2d(data, channels: channels, height: height, width: width,
                  kernelSize: kernelSize, stride: stride, padding: padding, into: output.data)
        return output
    }
}
