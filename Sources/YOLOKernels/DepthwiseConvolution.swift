/// Depthwise convolution (one `k × k` filter per channel) with bias and activation, written as
/// direct loops: a GEMM would have one row per channel and gain nothing. The channels are split into
/// one contiguous share per thread.
///
/// Stride 1 (every depthwise convolution of YOLO11) copies each plane into a zero-padded scratch
/// plane — one per share, its zero border cleared once — so that every output row is vectors
/// (`FloatVector`) of `k²` fused multiply-adds with no edge cases, and adds the bias and applies the
/// activation to each vector before it stores it; other strides run tap by tap over each output
/// row, then `addBiasAndActivate` over the plane. Either way each result is the sum over the taps
/// in row-major order, then `+ bias`, then the activation, as `addBiasAndActivate` computes them.
///
/// - Parameters:
///   - input: `channels` planes of `height × width`.
///   - weights: `channels` filters of `k · k`, row-major.
///   - bias: `channels` values.
///   - output: `channels` planes of `OH × OW`, all written.
@inline(never)
public func depthwiseConvolution(
    _ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
    weights: UnsafePointer<Float>, kernelSize k: Int, stride: Int, padding: Int,
    bias: UnsafePointer<Float>, activation: Activation, into output: UnsafeMutablePointer<Float>
) {
    let outputHeight = (height + 2 * padding - k) / stride + 1
    let outputWidth = (width + 2 * padding - k) / stride + 1
    let shares = min(channels, ComputeThreads.count)
    ComputeThreads.parallelFor(shares) { share in
        let shareChannels = (channels * share / shares)..<(channels * (share + 1) / shares)
        guard stride == 1 else {
            for c in shareChannels {
                let result = output + c * outputHeight * outputWidth
                depthwisePlane(input + c * height * width, height: height, width: width, filter: weights + c * k * k,
                               kernelSize: k, stride: stride, padding: padding,
                               outputHeight: outputHeight, outputWidth: outputWidth, into: result)
                addBiasAndActivate(result, count: outputHeight * outputWidth, bias: bias[c], activation: activation)
            }
            return
        }
        // Wide enough for the last vector of a row: columns up to ⌈OW/lanes⌉·lanes + k − 2 are read.
        let lanes = FloatVector.scalarCount
        let paddedWidth = max(width + 2 * padding, (outputWidth + lanes - 1) / lanes * lanes + k - 1)
        let paddedHeight = height + 2 * padding
        let scratch = Tensor(uninitializedShape: [paddedHeight * paddedWidth])
        defer { withExtendedLifetime(scratch) {} }
        // Every plane overwrites the same interior, so the border cleared here stays zero.
        scratch.data.update(repeating: 0, count: paddedHeight * paddedWidth)
        for c in shareChannels {
            let plane = input + c * height * width
            for y in 0..<height {
                (scratch.data + (y + padding) * paddedWidth + padding).update(from: plane + y * width, count: width)
            }
            depthwisePaddedPlaneStride1(scratch.data, paddedWidth: paddedWidth, filter: weights + c * k * k, kernelSize: k,
                                        bias: bias[c], activation: activation, outputHeight: outputHeight,
                                        outputWidth: outputWidth, into: output + c * outputHeight * outputWidth)
        }
    }
}

/// One zero-padded plane at stride 1: `result[oy][ox] = act(Σ filter[ky][kx] · padded[oy + ky][ox +
/// kx] + bias)`, a vector of output columns at a time, the taps in row-major order.
private func depthwisePaddedPlaneStride1(
    _ padded: UnsafePointer<Float>, paddedWidth: Int, filter: UnsafePointer<Float>, kernelSize k: Int, bias: Float,
    activation: Activation, outputHeight: Int, outputWidth: Int, into result: UnsafeMutablePointer<Float>
) {
    let lanes = FloatVector.scalarCount
    let raw = UnsafeRawPointer(padded)
    let b = FloatVector(repeating: bias)
    @inline(__always) func tap(_ index: Int) -> FloatVector { FloatVector(repeating: filter[index]) }
    // 3×3, the common case: the nine taps stay in registers.
    let (t0, t1, t2, t3, t4, t5, t6, t7, t8) = k == 3
        ? (tap(0), tap(1), tap(2), tap(3), tap(4), tap(5), tap(6), tap(7), tap(8))
        : (FloatVector(), FloatVector(), FloatVector(), FloatVector(), FloatVector(), FloatVector(), FloatVector(), FloatVector(), FloatVector())
    for oy in 0..<outputHeight {
        let destination = result + oy * outputWidth
        var x = 0
        while x < outputWidth {
            var sum = FloatVector()
            @inline(__always) func pixels(_ ky: Int, _ kx: Int) -> FloatVector {
                raw.loadUnaligned(fromByteOffset: ((oy + ky) * paddedWidth + x + kx) * MemoryLayout<Float>.stride, as: FloatVector.self)
            }
            if k == 3 {
                sum = multiplyAdd(t0, pixels(0, 0), sum); sum = multiplyAdd(t1, pixels(0, 1), sum); sum = multiplyAdd(t2, pixels(0, 2), sum)
                sum = multiplyAdd(t3, pixels(1, 0), sum); sum = multiplyAdd(t4, pixels(1, 1), sum); sum = multiplyAdd(t5, pixels(1, 2), sum)
                sum = multiplyAdd(t6, pixels(2, 0), sum); sum = multiplyAdd(t7, pixels(2, 1), sum); sum = multiplyAdd(t8, pixels(2, 2), sum)
            } else {
                for ky in 0..<k {
                    for kx in 0..<k { sum = multiplyAdd(tap(ky * k + kx), pixels(ky, kx), sum) }
                }
            }
            sum += b
            if activation == .silu { sum = vectorSiLU(sum) }
            if x + lanes <= outputWidth {
                UnsafeMutableRawPointer(destination + x).storeBytes(of: sum, as: FloatVector.self)
            } else {
                for lane in 0..<(outputWidth - x) { destination[x + lane] = sum[lane] }
            }
            x += lanes
        }
    }
}

/// One plane at any stride, tap by tap over each output row (which stays in L1 cache meanwhile).
private func depthwisePlane(
    _ plane: UnsafePointer<Float>, height: Int, width: Int, filter: UnsafePointer<Float>, kernelSize k: Int,
    stride: Int, padding: Int, outputHeight: Int, outputWidth: Int, into result: UnsafeMutablePointer<Float>
) {
    for oy in 0..<outputHeight {
        let destination = result + oy * outputWidth
        destination.update(repeating: 0, count: outputWidth)
        for ky in 0..<k {
            let y = oy * stride - padding + ky
            guard y >= 0 && y < height else { continue }
            for kx in 0..<k {
                let tap = filter[ky * k + kx]
                let first = max(0, (padding - kx + stride - 1) / stride)
                let last = min(outputWidth, (width + padding - kx + stride - 1) / stride)
                guard first < last else { continue }
                let source = plane + y * width - padding + kx
                for ox in first..<last { destination[ox] += tap * source[ox &* stride] }
            }
        }
    }
}
