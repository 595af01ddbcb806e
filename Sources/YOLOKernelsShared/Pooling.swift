import YOLOKernels
import YOLOTensor

/// Max pooling over `k × k` windows with implicit −∞ padding, as `nn.MaxPool2d(k, stride, padding)`.
/// The channels are split into one contiguous share per thread. Stride 1 with an output the size of
/// the input (`2 · padding = k − 1`, SPPF's 5 × 5) runs vectorized (`SameSizeMaxPool`); other
/// geometries window by window over each output row.
///
/// Every output is the maximum of its window taken in row-major order, a later element replacing
/// the maximum so far when it is not smaller (as `Swift.max(maximum, element)`): ties between −0 and
/// +0 keep the later one, and a NaN never replaces a number.
///
/// - Parameters:
///   - input: `channels` planes of `height × width`.
///   - output: `channels` planes of `OH × OW`.
func maxPool2d(
    _ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
    kernelSize k: Int, stride: Int, padding: Int,
    into output: UnsafeMutablePointer<Float>
) {
    let outputHeight = (height + 2 * padding - k) / stride + 1
    let outputWidth = (width + 2 * padding - k) / stride + 1
    let shares = min(channels, ComputeThreads.count)
    ComputeThreads.parallelFor(shares) { share in
        let shareChannels = evenShare(share, of: shares, count: channels)
        if stride == 1 && 2 * padding == k - 1 {
            let pool = SameSizeMaxPool(height: height, width: width, kernelSize: k)
            for c in shareChannels { pool(input + c * height * width, into: output + c * height * width) }
            return
        }
        for c in shareChannels {
            let plane = input + c * height * width
            let result = output + c * outputHeight * outputWidth
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
}

/// Stride-1 max pooling of planes whose output is the size of the input, as two passes over the
/// plane as one flat run of vectors (`FloatVector`, across row ends or not, as
/// `depthwiseConvolution` reads it): the maximum over each row window, into `rows`, with the lanes
/// whose element falls left or right of the row read as −∞; then over each column window of those,
/// `rows` having `padding` rows of −∞ above and below the plane. `2k` comparisons per output
/// instead of `k²`, and the same result, the windows' elements taken row by row and left to right.
/// (Scalar loops over SPPF's 20-wide rows are a visible share of a YOLO11n pass.)
private struct SameSizeMaxPool {
    let height, width, kernelSize, count, vectorEnd: Int
    /// A copy of the plane, `padding` floats after the start: the loads at a vector's `± padding`.
    let source: Tensor
    /// The row-window maxima, `padding` rows after the start, −∞ before and after.
    let rows: Tensor

    init(height: Int, width: Int, kernelSize k: Int) {
        let lanes = FloatVector.scalarCount, padding = k / 2
        (self.height, self.width, kernelSize, count) = (height, width, k, height * width)
        vectorEnd = wholeVectorCount(count)
        source = Tensor(shape: [vectorEnd + 2 * padding])
        rows = Tensor(uninitializedShape: [vectorEnd + 2 * padding * width + lanes])
        rows.data.update(repeating: -.infinity, count: rows.count)
    }

    func callAsFunction(_ plane: UnsafePointer<Float>, into result: UnsafeMutablePointer<Float>) {
        let lanes = FloatVector.scalarCount, padding = kernelSize / 2
        let copy = source.data + padding, maxima = rows.data + padding * width
        copy.update(from: plane, count: count)
        @inline(__always) func larger(_ maximum: FloatVector, _ element: FloatVector) -> FloatVector {
            maximum.replacing(with: element, where: element .>= maximum)
        }
        var columns = LaneColumns(width: width, first: 0)
        for j in stride(from: 0, to: vectorEnd, by: lanes) {
            var maximum = FloatVector(repeating: -.infinity)
            for dx in -padding...padding {
                let element = UnsafeRawPointer(copy + j + dx).loadUnaligned(as: FloatVector.self)
                maximum = larger(maximum, element.replacing(with: -.infinity, where: columns.outside(offset: dx)))
            }
            UnsafeMutableRawPointer(maxima + j).storeBytes(of: maximum, as: FloatVector.self)
            columns.advance()
        }
        // The lanes past the plane in its last vector: back to −∞, the rows below it.
        (maxima + count).update(repeating: -.infinity, count: vectorEnd - count)
        for j in stride(from: 0, to: vectorEnd, by: lanes) {
            var maximum = FloatVector(repeating: -.infinity)
            for dy in -padding...padding {
                maximum = larger(maximum, UnsafeRawPointer(maxima + j + dy * width).loadUnaligned(as: FloatVector.self))
            }
            if j + lanes <= count {
                UnsafeMutableRawPointer(result + j).storeBytes(of: maximum, as: FloatVector.self)
            } else {
                for lane in 0..<(count - j) { result[j + lane] = maximum[lane] }
            }
        }
    }
}
