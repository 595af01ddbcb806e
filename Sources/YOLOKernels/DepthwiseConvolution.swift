/// Depthwise convolution (one `k × k` filter per channel, no bias) written as direct loops: a GEMM
/// would have one row per channel and gain nothing. Channels run in parallel.
///
/// Stride 1 (every depthwise convolution of YOLO11) copies each plane once into a zero-padded
/// scratch plane, so that every output row is vectors (`FloatVector`) of `k²` fused multiply-adds
/// with no edge cases; other strides run tap by tap over each output row.
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
        if stride == 1 {
            depthwisePlaneStride1(plane, height: height, width: width, filter: filter, kernelSize: k, padding: padding,
                                  outputHeight: outputHeight, outputWidth: outputWidth, into: result)
        } else {
            depthwisePlane(plane, height: height, width: width, filter: filter, kernelSize: k, stride: stride, padding: padding,
                           outputHeight: outputHeight, outputWidth: outputWidth, into: result)
        }
    }
}

/// One plane at stride 1: `result[oy][ox] = Σ filter[ky][kx] · padded[oy + ky][ox + kx]`, a vector
/// of output columns at a time, the taps in row-major order.
private func depthwisePlaneStride1(
    _ plane: UnsafePointer<Float>, height: Int, width: Int, filter: UnsafePointer<Float>, kernelSize k: Int, padding: Int,
    outputHeight: Int, outputWidth: Int, into result: UnsafeMutablePointer<Float>
) {
    // Wide enough for the last vector of a row: columns up to ⌈OW/lanes⌉·lanes + k − 2 are read.
    let lanes = FloatVector.scalarCount
    let vectorWidth = (outputWidth + lanes - 1) / lanes * lanes
    let paddedWidth = max(width + 2 * padding, vectorWidth + k - 1)
    let paddedHeight = height + 2 * padding
    let scratch = Tensor(uninitializedShape: [paddedHeight * paddedWidth])
    let padded = scratch.data
    defer { withExtendedLifetime(scratch) {} }
    padded.update(repeating: 0, count: paddedHeight * paddedWidth)
    for y in 0..<height {
        (padded + (y + padding) * paddedWidth + padding).update(from: plane + y * width, count: width)
    }
    let raw = UnsafeRawPointer(padded)
    // 3×3, the common case: the nine taps stay in registers.
    let taps3 = k == 3 ? (0..<9).map { FloatVector(repeating: filter[$0]) } : []
    for oy in 0..<outputHeight {
        let destination = result + oy * outputWidth
        var x = 0
        while x < outputWidth {
            var sum = FloatVector()
            if k == 3 {
                for ky in 0..<3 {
                    let row = ((oy + ky) * paddedWidth + x) * 4
                    sum = multiplyAdd(taps3[3 * ky], raw.loadUnaligned(fromByteOffset: row, as: FloatVector.self), sum)
                    sum = multiplyAdd(taps3[3 * ky + 1], raw.loadUnaligned(fromByteOffset: row + 4, as: FloatVector.self), sum)
                    sum = multiplyAdd(taps3[3 * ky + 2], raw.loadUnaligned(fromByteOffset: row + 8, as: FloatVector.self), sum)
                }
            } else {
                for ky in 0..<k {
                    let row = ((oy + ky) * paddedWidth + x) * 4
                    for kx in 0..<k {
                        let pixels = raw.loadUnaligned(fromByteOffset: row + kx * 4, as: FloatVector.self)
                        sum = multiplyAdd(FloatVector(repeating: filter[ky * k + kx]), pixels, sum)
                    }
                }
            }
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
