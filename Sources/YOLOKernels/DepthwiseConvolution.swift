/// Depthwise convolution (one `k × k` filter per channel, no bias) written as a direct loop: a GEMM
/// would have one row per channel and gain nothing. Channels run in parallel.
///
/// - Parameters:
///   - input: `channels` planes of `height × width`.
///   - weights: `channels` filters of `k · k`, row-major.
///   - output: `channels` planes of `OH × OW`, all written.
@inline(never)
public func depthwiseConvolution(
    _ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
    weights: UnsafePointer<Float>,
    kernelSize k: Int, stride: Int, padding: Int,
    into output: UnsafeMutablePointer<Float>
) {
    let outputHeight = (height + 2 * padding - k) / stride + 1
    let outputWidth = (width + 2 * padding - k) / stride + 1
    ComputeThreads.parallelFor(channels) { c in
        let plane = input + c * height * width
        let filter = weights + c * k * k
        let result = output + c * outputHeight * outputWidth
        result.update(repeating: 0, count: outputHeight * outputWidth)
        for ky in 0..<k {
            for kx in 0..<k {
                let tap = filter[ky * k + kx]
                let first = max(0, (padding - kx + stride - 1) / stride)
                let last = min(outputWidth, (width + padding - kx + stride - 1) / stride)
                guard first < last else { continue }
                for oy in 0..<outputHeight {
                    let y = oy * stride - padding + ky
                    guard y >= 0 && y < height else { continue }
                    let source = plane + y * width - padding + kx
                    let destination = result + oy * outputWidth
                    if stride == 1 {
                        for ox in first..<last { destination[ox] += tap * source[ox] }  // contiguous: vectorized
                    } else {
                        for ox in first..<last { destination[ox] += tap * source[ox * stride] }
                    }
                }
            }
        }
    }
}
