import Synchronization

/// Recycles tensor storage by exact size, so that repeated forward passes reuse the buffers of the
/// previous one instead of mapping fresh pages (each new page costs a fault and a kernel zero-fill).
///
/// Free buffers are kept up to `capacityBytes` in total; beyond that they go back to the system.
/// Thread-safe: one pool serves every thread.
public final class BufferPool: Sendable {
    public static let shared = BufferPool(capacityBytes: 256 << 20)

    /// A buffer owned by the pool; only one thread holds it at a time, handed over under the lock.
    private struct Buffer: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    private struct State {
        var free: [Int: [Buffer]] = [:]
        var freeBytes = 0
    }

    private let state = Mutex(State())
    public let capacityBytes: Int

    public init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    /// A 64-byte-aligned buffer of `byteCount` bytes with unspecified contents.
    public func take(byteCount: Int) -> UnsafeMutableRawPointer {
        let recycled = state.withLock { state -> Buffer? in
            guard let buffer = state.free[byteCount]?.popLast() else { return nil }
            state.freeBytes -= byteCount
            return buffer
        }
        return recycled?.pointer ?? UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: Tensor.alignment)
    }

    /// Gives back a buffer from `take(byteCount:)`.
    public func give(_ pointer: UnsafeMutableRawPointer, byteCount: Int) {
        let buffer = Buffer(pointer: pointer)
        let kept = state.withLock { state -> Bool in
            guard state.freeBytes + byteCount <= capacityBytes else { return false }
            state.free[byteCount, default: []].append(buffer)
            state.freeBytes += byteCount
            return true
        }
        if !kept { pointer.deallocate() }
    }

    /// Returns every free buffer to the system.
    public func drain() {
        let buffers = state.withLock { state -> [Buffer] in
            defer { state.free = [:]; state.freeBytes = 0 }
            return state.free.values.flatMap { $0 }
        }
        for buffer in buffers { buffer.pointer.deallocate() }
    }

    /// Bytes held in free buffers now.
    public var freeBytes: Int { state.withLock { $0.freeBytes } }
}
