import YOLOKernels
import YOLOTensor

import CPrefetch

/// Asks for the cache line holding `address` ahead of its use (into every level; a hint that never
/// faults, so it may point past the end of a buffer).
@inline(__always)
func prefetchLine(_ address: UnsafeRawPointer) {
    swiftyolo_prefetch(address)
}

/// Asks for the cache lines of `count` floats from `start` ahead of their use: for rows that the
/// next step of a loop reads from another plane, far from the rows it reads now, where the hardware
/// prefetchers, which follow runs of neighbouring lines, would start late.
@inline(__always)
func prefetch(_ start: UnsafePointer<Float>, count: Int) {
    let first = UnsafeRawPointer(start)
    for offset in stride(from: 0, to: count * MemoryLayout<Float>.stride, by: 64) { prefetchLine(first + offset) }
}
