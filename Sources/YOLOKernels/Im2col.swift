/// Unfolds a `[C, H, W]` image into the `[C·k·k, OH·OW]` column matrix that turns a convolution
/// into one GEMM: row `(c·k + ky)·k + kx` holds, for every output position, the input pixel under
/// kernel tap `(ky, kx)` of channel `c`, or 0 where the window hangs over the zero padding.
///
/// - Parameters:
///   - input: `channels` planes of `height × width` floats.
///   - columns: room for `channels · k · k · OH · OW` floats.
public func im2col(
    _ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
    kernelSize k: Int, stride: Int, padding: Int,
    into columns: UnsafeMutablePointer<Float>
) {
    let outputHeight = (height + 2 * padding - k) / stride + 1
    let outputWidth = (width + 2 * padding - k) / stride + 1
    let planeSize = outputHeight * outputWidth
    ComputeThreads.parallelFor(channels) { c in
        let plane = input + c * height * width
        var row = columns + c * k * k * planeSize
        for ky in 0..<k {
            for kx in 0..<k {
                // Output columns [first, last) read inside the image on this tap; the rest is padding.
                let first = max(0, (padding - kx + stride - 1) / stride)
                let last = min(outputWidth, (width + padding - kx + stride - 1) / stride)
                for oy in 0..<outputHeight {
                    let destination = row + oy * outputWidth
                    let y = oy * stride - padding + ky
                    guard y >= 0 && y < height, first < last else {
                        destination.update(repeating: 0, count: outputWidth)
                        continue
                    }
                    if first > 0 { destination.update(repeating: 0, count: first) }
                    if last < outputWidth { (destination + last).update(repeating: 0, count: outputWidth - last) }
                    let source = plane + y * width + (first * stride - padding + kx)
                    if stride == 1 {
                        (destination + first).update(from: source, count: last - first)
                    } else {
                        for ox in 0..<(last - first) { destination[first + ox] = source[ox * stride] }
                    }
                }
                row += planeSize
            }
        }
    }
}
