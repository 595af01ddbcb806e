import YOLOKernels
import YOLOTensor

/// Unfolds a `[C, H, W]` image into the column matrix that turns a convolution into one GEMM, for
/// the output positions `positions` (row-major over the `OH × OW` output) only, so that a large
/// convolution can run block by block with a small, cache-resident column buffer.
///
/// Row `(c·k + ky)·k + kx` of the result holds, for each output position in the block, the input
/// pixel under kernel tap `(ky, kx)` of channel `c`, or 0 where the window hangs over the zero
/// padding: `columns[row · positions.count + (p − positions.lowerBound)]`.
///
/// - Parameters:
///   - input: `channels` planes of `height × width` floats.
///   - columns: room for `channels · k · k · positions.count` floats.
@inline(never)
func im2col(
    _ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
    kernelSize k: Int, stride: Int, padding: Int, positions: Range<Int>,
    into columns: UnsafeMutablePointer<Float>
) {
    let outputWidth = (width + 2 * padding - k) / stride + 1
    let blockSize = positions.count
    var row = columns
    for c in 0..<channels {
        let plane = input + c * height * width
        for ky in 0..<k {
            for kx in 0..<k {
                // Output columns [first, last) read inside the image on this tap; the rest is padding.
                let first = max(0, (padding - kx + stride - 1) / stride)
                let last = min(outputWidth, (width + padding - kx + stride - 1) / stride)
                var p = positions.lowerBound
                while p < positions.upperBound {
                    let oy = p / outputWidth, rowStart = oy * outputWidth
                    // This output row's part of the block: output columns [x0, x1).
                    let x0 = p - rowStart, x1 = min(outputWidth, positions.upperBound - rowStart)
                    let destination = row + (p - positions.lowerBound) - x0
                    let y = oy * stride - padding + ky
                    let inside = y >= 0 && y < height
                    let from = inside ? max(x0, first) : x1, to = inside ? min(x1, last) : x1
                    if from > x0 { (destination + x0).update(repeating: 0, count: from - x0) }
                    if to < x1 { (destination + max(to, from)).update(repeating: 0, count: x1 - max(to, from)) }
                    if from < to {
                        let source = plane + y * width - padding + kx
                        switch stride {
                        case 1: (destination + from).update(from: source + from, count: to - from)
                        case 2: copyEvenElements(source, into: destination, range: from..<to)
                        default: for ox in from..<to { destination[ox] = source[ox &* stride] }
                        }
                    }
                    p = rowStart + x1
                }
                row += blockSize
            }
        }
    }
}

/// `destination[i] = source[2·i]` for `i` in `range`, eight at a time: sixteen consecutive floats
/// loaded, their even lanes kept. Reads nothing past `source[2·(range.upperBound − 1)]`.
@inline(__always)
private func copyEvenElements(_ source: UnsafePointer<Float>, into destination: UnsafeMutablePointer<Float>, range: Range<Int>) {
    var i = range.lowerBound
    // The last load of a vector iteration reaches source[2·i + 15], so it needs i + 8 < upperBound.
    while i + 8 < range.upperBound {
        let pairs = UnsafeRawPointer(source + 2 * i).loadUnaligned(as: SIMD16<Float>.self)
        UnsafeMutableRawPointer(destination + i).storeBytes(of: pairs.evenHalf, as: SIMD8<Float>.self)
        i += 8
    }
    while i < range.upperBound {
        destination[i] = source[2 &* i]
        i += 1
    }
}
