import YOLOKernels
import YOLOTensor

/// Depthwise convolution (one `k × k` filter per channel) with bias and activation, written as
/// direct loops: a GEMM would have one row per channel and gain nothing. The channels are split into
/// one contiguous share per thread.
///
/// Stride 1 with an output the size of the input (`2 · padding = k − 1`, every depthwise convolution
/// of YOLO11) runs over each plane as one flat sequence of `H · W` outputs: tap `(ky, kx)` of output
/// `j` is input `j + (ky − p) · W + kx − p`, so a vector (`FloatVector`) of outputs, across row ends
/// or not, is `k²` fused multiply-adds of unaligned loads, the lanes whose tap falls left or right of
/// the row zeroed in the load (`depthwiseSameSizeSums`). This reads the input in place (a zero-padded
/// copy of every plane would cost a copy of every input), and the 20- and 40-wide planes waste
/// no lanes on a partial vector at each row's end; only the few vectors next to the top and bottom
/// edges read a padded copy of the rows they need (`SameSizeEdges`). The sums of a block of outputs
/// go to the output, then `addBiasAndActivate` runs over it while it is in L1 cache: with SiLU in
/// the same loop the compiler called `vectorSiLU` out of line, the nine taps spilled around every
/// call. Other geometries run tap by tap over each output row, then
/// `addBiasAndActivate` over the plane. Either way each result is the sum over the taps in
/// row-major order (zero padding included), then `+ bias`, then the activation, as
/// `addBiasAndActivate` computes them.
///
/// - Parameters:
///   - input: `channels` planes of `height × width`.
///   - weights: `channels` filters of `k · k`, row-major.
///   - bias: `channels` values.
///   - output: `channels` planes of `OH × OW`, all written.
@inline(never)
func depthwiseConvolution(
    _ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int,
    weights: UnsafePointer<Float>, kernelSize k: Int, stride: Int, padding: Int,
    bias: UnsafePointer<Float>, activation: Activation, into output: UnsafeMutablePointer<Float>
) {
    let outputHeight = (height + 2 * padding - k) / stride + 1
    let outputWidth = (width + 2 * padding - k) / stride + 1
    let shares = min(channels, ComputeThreads.count)
    let edges = stride == 1 && 2 * padding == k - 1 ? SameSizeEdges(height: height, width: width, kernelSize: k) : nil
    ComputeThreads.parallelFor(shares) { share in
        let shareChannels = evenShare(share, of: shares, count: channels)
        guard let edges else {
            for c in shareChannels {
                let result = output + c * outputHeight * outputWidth
                depthwisePlane(input + c * height * width, height: height, width: width, filter: weights + c * k * k,
                               kernelSize: k, stride: stride, padding: padding,
                               outputHeight: outputHeight, outputWidth: outputWidth, into: result)
                addBiasAndActivate(result, count: outputHeight * outputWidth, bias: bias[c], activation: activation)
            }
            return
        }
        // Both padded copies' zeros stay: each plane overwrites only the rows it copies.
        let scratch = Tensor(shape: [edges.scratchCount])
        defer { withExtendedLifetime(scratch) {} }
        let count = height * width
        for c in shareChannels {
            let plane = input + c * count, result = output + c * count
            let (top, bottom) = edges.copyEdgeRows(plane, into: scratch.data)
            // A block at a time, so that its sums are still in L1 cache for the activation.
            for blockStart in Swift.stride(from: 0, to: edges.vectorEnd, by: 1024) {
                let block = blockStart..<min(blockStart + 1024, edges.vectorEnd)
                // Outputs `region ∩ block` from `source`, which holds input element `region.lowerBound` at index 0.
                func sums(_ region: Range<Int>, from source: UnsafePointer<Float>) {
                    let outputs = region.clamped(to: block)
                    guard !outputs.isEmpty else { return }
                    depthwiseSameSizeSums(source + (outputs.lowerBound - region.lowerBound), outputs: outputs,
                                          planeCount: count, width: width, filter: weights + c * k * k, kernelSize: k,
                                          into: result)
                }
                sums(0..<edges.topEnd, from: top)
                sums(edges.topEnd..<edges.bottomStart, from: plane + edges.topEnd)
                sums(edges.bottomStart..<edges.vectorEnd, from: bottom)
                addBiasAndActivate(result + blockStart, count: min(block.upperBound, count) - blockStart, bias: bias[c],
                                   activation: activation)
            }
        }
    }
}

/// Where a plane's flat output vectors may read the input in place: vector `j` (outputs `j ..< j +
/// lanes`) reads inputs `j − reach ... j + lanes − 1 + reach`, all inside the plane for `j` in
/// `topEnd ..< bottomStart`. The vectors before and after read copies of the plane's first and last
/// rows with zeros around them.
private struct SameSizeEdges {
    let count, reach, vectorEnd, topEnd, bottomStart: Int

    init(height: Int, width: Int, kernelSize k: Int) {
        let lanes = FloatVector.scalarCount
        count = height * width
        reach = k / 2 * width + k / 2
        vectorEnd = wholeVectorCount(count)
        topEnd = min(vectorEnd, wholeVectorCount(reach))
        // The first vector past the last that ends `reach` before the plane does.
        let lastInPlace = count - lanes - reach
        bottomStart = max(topEnd, lastInPlace < 0 ? 0 : min(vectorEnd, (lastInPlace / lanes + 1) * lanes))
    }

    /// Floats in the two padded copies, each of its run of outputs and `reach` on either side.
    var scratchCount: Int { topEnd + (vectorEnd - bottomStart) + 4 * reach }

    /// Copies the plane's elements that the first and last runs read into `scratch` (zeroed before
    /// the first plane: the elements outside the plane stay zero), and returns where those runs'
    /// first inputs lie in it.
    func copyEdgeRows(_ plane: UnsafePointer<Float>, into scratch: UnsafeMutablePointer<Float>)
        -> (top: UnsafePointer<Float>, bottom: UnsafePointer<Float>) {
        // Inputs −reach ..< topEnd + reach, then bottomStart − reach ..< vectorEnd + reach, where
        // bottomStart ≥ topEnd ≥ reach whenever there is a last run.
        let top = scratch + reach, bottom = scratch + topEnd + 3 * reach
        top.update(from: plane, count: min(count, topEnd + reach))
        if bottomStart < vectorEnd {
            (bottom - reach).update(from: plane + bottomStart - reach, count: count - (bottomStart - reach))
        }
        return (UnsafePointer(top), UnsafePointer(bottom))
    }
}

/// The sums of the vectors of flat outputs `outputs` (whole vectors, the last one possibly past
/// `planeCount`, where it stores only its first lanes) of one plane: `result[j] = Σ filter[ky][kx] ·
/// input[j + (ky − p) · W + kx − p]`, the taps in row-major order, a tap reading zero where its column
/// `j mod W + kx − p` falls outside the row (a lane zeroed in the load). `source[0]` is input element
/// `outputs.lowerBound`; every element read must exist, the rows above and below the plane as zeros.
private func depthwiseSameSizeSums(
    _ source: UnsafePointer<Float>, outputs: Range<Int>, planeCount: Int, width: Int, filter: UnsafePointer<Float>,
    kernelSize k: Int, into result: UnsafeMutablePointer<Float>
) {
    let lanes = FloatVector.scalarCount
    let p = k / 2
    var columns = LaneColumns(width: width, first: outputs.lowerBound)
    @inline(__always) func tap(_ index: Int) -> FloatVector { FloatVector(repeating: filter[index]) }
    // Byte offset of tap (ky, kx) from the output's own input element.
    @inline(__always) func offset(_ ky: Int, _ kx: Int) -> Int { ((ky &- p) &* width &+ kx &- p) &* MemoryLayout<Float>.stride }
    var pixels = UnsafeRawPointer(source)
    var j = outputs.lowerBound
    @inline(__always) func store(_ sum: FloatVector) {
        if j + lanes <= planeCount {
            UnsafeMutableRawPointer(result + j).storeBytes(of: sum, as: FloatVector.self)
        } else {
            for lane in 0..<(planeCount - j) { result[j + lane] = sum[lane] }
        }
        columns.advance()
        pixels += lanes * MemoryLayout<Float>.stride
        j += lanes
    }
    if k == 3 {
        // The nine taps and their offsets stay in registers.
        let (t0, t1, t2, t3, t4, t5, t6, t7, t8) = (tap(0), tap(1), tap(2), tap(3), tap(4), tap(5), tap(6), tap(7), tap(8))
        let (o0, o1, o2, o3, o4, o5, o6, o7, o8) = (offset(0, 0), offset(0, 1), offset(0, 2), offset(1, 0), offset(1, 1),
                                                    offset(1, 2), offset(2, 0), offset(2, 1), offset(2, 2))
        let firstColumn = LaneColumns.Columns(), lastColumn = LaneColumns.Columns(repeating: Int32(width - 1))
        while j < outputs.upperBound {
            let left = columns.values .== firstColumn, right = columns.values .== lastColumn
            @inline(__always) func load(_ offset: Int) -> FloatVector { pixels.loadUnaligned(fromByteOffset: offset, as: FloatVector.self) }
            var sum = multiplyAdd(t0, load(o0).replacing(with: 0, where: left), FloatVector())
            sum = multiplyAdd(t1, load(o1), sum)
            sum = multiplyAdd(t2, load(o2).replacing(with: 0, where: right), sum)
            sum = multiplyAdd(t3, load(o3).replacing(with: 0, where: left), sum)
            sum = multiplyAdd(t4, load(o4), sum)
            sum = multiplyAdd(t5, load(o5).replacing(with: 0, where: right), sum)
            sum = multiplyAdd(t6, load(o6).replacing(with: 0, where: left), sum)
            sum = multiplyAdd(t7, load(o7), sum)
            sum = multiplyAdd(t8, load(o8).replacing(with: 0, where: right), sum)
            store(sum)
        }
    } else {
        while j < outputs.upperBound {
            var sum = FloatVector()
            for ky in 0..<k {
                for kx in 0..<k {
                    let pixel = pixels.loadUnaligned(fromByteOffset: offset(ky, kx), as: FloatVector.self)
                    sum = multiplyAdd(tap(ky * k + kx), pixel.replacing(with: 0, where: columns.outside(offset: kx - p)), sum)
                }
            }
            store(sum)
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
