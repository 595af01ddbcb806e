import Foundation

/// Recycles tensor storage, so that repeated forward passes reuse the buffers of the previous one
/// instead of mapping fresh pages (each new page costs a fault and a kernel zero-fill).
///
/// A request takes the smallest free buffer that holds it and is at most twice its size (best fit),
/// so buffers serve tensors of other shapes too and the pool stays near the peak live set of one
/// forward pass. Free buffers are kept up to `capacityBytes` in total; beyond that they go back to
/// the system. Thread-safe: one pool serves every thread.
package final class BufferPool: Sendable {
    package static let shared = BufferPool(capacityBytes: 128 << 20)

    /// A buffer and the bytes it holds (which may exceed the bytes asked for).
    package struct Buffer: @unchecked Sendable {
        package let pointer: UnsafeMutableRawPointer
        package let capacity: Int
    }

    private struct State {
        /// Sorted by capacity.
        var free: [Buffer] = []
        var freeBytes = 0
        var liveBytes = 0
        var peakLiveBytes = 0
    }

    // NSLock (a pthread mutex) rather than Synchronization.Mutex: ThreadSanitizer sees it, so the
    // hand-over of a buffer from one thread to the next is not reported as a race.
    private let lock = NSLock()
    nonisolated(unsafe) private var state = State()
    package let capacityBytes: Int

    package init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// A 64-byte-aligned buffer of at least `byteCount` bytes, contents unspecified.
    package func take(byteCount: Int) -> Buffer {
        let capacity = (byteCount + 4095) / 4096 * 4096  // whole pages: neighbours in size share buffers
        let recycled = withState { state -> Buffer? in
            let first = state.free.partitioningIndex { $0.capacity >= byteCount }
            let buffer: Buffer?
            if first < state.free.count, state.free[first].capacity <= 2 * capacity {
                state.freeBytes -= state.free[first].capacity
                buffer = state.free.remove(at: first)
            } else {
                buffer = nil
            }
            state.liveBytes += buffer?.capacity ?? capacity
            state.peakLiveBytes = max(state.peakLiveBytes, state.liveBytes)
            return buffer
        }
        if let recycled { return recycled }
        return Buffer(pointer: UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: Tensor.alignment), capacity: capacity)
    }

    /// Gives back a buffer from `take(byteCount:)`.
    package func give(_ buffer: Buffer) {
        let kept = withState { state -> Bool in
            state.liveBytes -= buffer.capacity
            guard state.freeBytes + buffer.capacity <= capacityBytes else { return false }
            state.free.insert(buffer, at: state.free.partitioningIndex { $0.capacity >= buffer.capacity })
            state.freeBytes += buffer.capacity
            return true
        }
        if !kept { buffer.pointer.deallocate() }
    }

    /// Returns every free buffer to the system.
    package func drain() {
        let buffers = withState { state -> [Buffer] in
            defer { state.free = []; state.freeBytes = 0 }
            return state.free
        }
        for buffer in buffers { buffer.pointer.deallocate() }
    }

    /// Bytes held in free buffers now.
    package var freeBytes: Int { withState { $0.freeBytes } }

    /// Bytes in buffers handed out and not given back: now, and the most ever at once.
    package var liveBytes: (now: Int, peak: Int) { withState { ($0.liveBytes, $0.peakLiveBytes) } }
}

extension Array {
    /// The first index whose element satisfies `predicate`, for a predicate that is false and then
    /// true along the array (binary search).
    func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
