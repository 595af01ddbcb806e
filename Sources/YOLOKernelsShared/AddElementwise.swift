import YOLOKernels
import YOLOTensor

/// `output[i] = a[i] + b[i]` for `count` floats, in vectors, split over the threads; `output` may be
/// `a` (an in-place sum).
func addElementwise(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int, into output: UnsafeMutablePointer<Float>) {
    let chunks = max(1, min(ComputeThreads.count, count / 4096))
    ComputeThreads.parallelFor(chunks) { chunk in
        let share = evenShare(chunk, of: chunks, count: count)
        let start = share.lowerBound, end = share.upperBound
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
