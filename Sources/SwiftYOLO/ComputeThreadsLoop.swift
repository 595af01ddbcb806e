import YOLOImage
import YOLOKernels

extension ParallelLoop {
    /// The kernels' thread pool, `ComputeThreads`, with as many threads as it has now: the
    /// preprocessing of a detection (and the conversion of a video frame) runs on the threads its
    /// forward pass uses.
    package static var computeThreads: ParallelLoop {
        ParallelLoop(threads: ComputeThreads.count) { count, body in ComputeThreads.parallelFor(count, body) }
    }
}
