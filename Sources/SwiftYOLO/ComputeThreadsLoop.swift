import YOLOImage
import YOLOKernels

extension ParallelLoop {
    /// The kernels' thread pool, `ComputeThreads`, with as many threads as it has now: the
    /// preprocessing of a detection runs on the threads its forward pass uses.
    static var computeThreads: ParallelLoop {
        ParallelLoop(threads: ComputeThreads.count) { count, body in ComputeThreads.parallelFor(count, body) }
    }
}
