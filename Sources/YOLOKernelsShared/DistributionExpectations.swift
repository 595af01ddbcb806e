import YOLOKernels
import YOLOTensor

/// DFL's expected distances of `count` anchors at once: `Σ_j weights[j] · softmax(logits)_j` over
/// `bins` bins, a vector of anchors at a time.
///
/// - Parameters:
///   - logits: `bins` planes of `planeSize` floats: bin `j` of anchor `i` at `logits[j · planeSize + i]`.
///   - output: `count` distances, one per anchor.
func distributionExpectations(_ logits: UnsafePointer<Float>, planeSize: Int, count: Int, weights: UnsafePointer<Float>, bins: Int,
                              into output: UnsafeMutablePointer<Float>) {
    let raw = UnsafeRawPointer(logits)
    let lanes = FloatVector.scalarCount
    var start = 0
    while start < count {
        // A vector of anchors at a time; the last group re-reads a few anchors so loads stay in bounds.
        let i = min(start, max(count - lanes, 0))
        func load(_ bin: Int) -> FloatVector {
            if count >= lanes { return raw.loadUnaligned(fromByteOffset: (bin * planeSize + i) * 4, as: FloatVector.self) }
            var v = FloatVector()
            for lane in 0..<count { v[lane] = logits[bin * planeSize + lane] }
            return v
        }
        var maximum = load(0)
        for j in 1..<bins { maximum = lanewiseMax(maximum, load(j)) }
        // The exponentials live on the stack: this runs once per vector of anchors and side.
        let expectation = withUnsafeTemporaryAllocation(of: FloatVector.self, capacity: bins) { exponentials in
            var sum = FloatVector()
            for j in 0..<bins {
                exponentials[j] = vectorExp(load(j) - maximum)
                sum += exponentials[j]
            }
            var expectation = FloatVector()
            for j in 0..<bins { expectation += weights[j] * (exponentials[j] / sum) }
            return expectation
        }
        for lane in 0..<min(lanes, count) { output[i + lane] = expectation[lane] }
        start = i + lanes
    }
}
