import CAddressSanitizer
import CSystemCalls
import FoundationEssentials
import Glibc
import YOLOPlatform

/// Tensor storage: one arena of address space, reserved once, from which each request is carved
/// and to which it returns, so that a forward pass touches about as much memory as it holds at
/// once, and the passes after it touch no new memory at all.
///
/// Every page a process touches for the first time costs a fault and a zero-fill, and stays in its
/// resident memory. Whole buffers lent to requests of at least half their size made YOLO11n's first
/// pass touch two and a half times what it holds at once (docs/performance.md). Here a request
/// takes the smallest free range that holds it, from its start (best fit), and what it leaves stays
/// free; a range given back merges with the free ranges beside it. Sizes are whole pages, so that
/// every tensor starts on a page.
///
/// The arena is reserved without access (`PROT_NONE`: no memory, no commit charge) and made
/// readable and writable as its top grows, in steps of `commitStep`. Where the reservation fails
/// or is full, a request gets a buffer of its own from the allocator, freed when given back.
///
/// Under a limit on address space (`ulimit -v`) the reservation counts against it, and an
/// allocation that fails ends the process. So there the arena starts empty and is reserved for
/// what an input's memory plan asks (`reserve(atLeast:)`, before its pass: the allocator keeps
/// the rest), and an input whose plan cannot be reserved is refused instead
/// (`DetectionModel.activationMemoryShortfall`). Passes run at once are admitted against the
/// reservation together (`admitPass`): one that does not fit beside the others waits for them.
///
/// Free ranges are kept up to `capacityBytes` in total; beyond that, the free range at the top is
/// given back to the system (`MADV_DONTNEED`) and the top lowered. Thread-safe: one arena serves
/// every thread.
///
/// In a build with AddressSanitizer every byte no tensor holds is poisoned: the rest of a tensor's
/// last page, and every free range, so that a kernel that reads or writes past its tensor is
/// reported, as past the end of a malloc'ed block.
package final class BufferPool: Sendable {
    package static let shared = BufferPool(capacityBytes: 128 << 20)

    /// A buffer and the bytes it holds (which may exceed the bytes asked for).
    package struct Buffer: @unchecked Sendable {
        package let pointer: UnsafeMutableRawPointer
        package let capacity: Int
    }

    /// The arena's bytes from `offset`, `size` of them.
    private struct Span {
        var offset: Int
        var size: Int
        var end: Int { offset + size }
    }

    private struct State {
        /// The free ranges below `top`, sorted by offset, none adjacent to another.
        var free: [Span] = []
        var freeBytes = 0
        /// The arena's bytes in use or free; above it, untouched.
        var top = 0
        /// The arena's bytes made readable and writable.
        var committed = 0
        var liveBytes = 0
        var peakLiveBytes = 0
        /// The reservation: `reserved` bytes from `base` (none, 0, where none could be made).
        var base: UnsafeMutableRawPointer?
        var reserved = 0
    }

    // A pthread mutex (`Lock`) rather than Synchronization.Mutex: ThreadSanitizer sees it, so the
    // hand-over of a range from one thread to the next is not reported as a race.
    private let lock = Lock()
    nonisolated(unsafe) private var state = State()

    /// The passes admitted (`admitPass`) and not yet ended: how many, their plans' bytes and the
    /// address space each keeps free beside the reservation. Under `admissions`, which is taken
    /// before `lock`, never after.
    private struct Admitted {
        var passes = 0
        var bytes = 0
        var headroom = 0
    }
    private let admissions = Condition()
    nonisolated(unsafe) private var admitted = Admitted()
    package let capacityBytes: Int
    /// How far the readable and writable part grows at a time.
    private let commitStep = 4 << 20
    private static let pageSize = 4096
    /// The smallest reservation tried: a few maps of a small input.
    private static let minimumReservation = 4 << 20
    /// Under AddressSanitizer, the bytes past a request that stay poisoned at least: a cache line.
    private static let guardBytes = sy_address_sanitizer_enabled() != 0 ? 64 : 0

    /// - Parameter reservingBytes: the address space to reserve; by default twice the machine's
    ///   memory (at least 1 GiB, at most 1 TiB), halved until the system grants it, down to
    ///   `minimumReservation` (below it, none); and none under an address-space limit
    ///   (`ulimit -v`), where `reserve(atLeast:)` reserves what a memory plan asks.
    package init(capacityBytes: Int, reservingBytes: Int? = nil) {
        self.capacityBytes = capacityBytes
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        var size = reservingBytes ?? (Self.addressSpaceLimit == nil ? min(max(2 * physical, 1 << 30), 1 << 40) : 0)
        while size >= Self.minimumReservation {
            if let address = Self.map(size) {
                (state.base, state.reserved) = (address, size)
                break
            }
            size /= 2
        }
    }

    /// `size` bytes of address space without access, or `nil` where the system refuses them.
    private static func map(_ size: Int) -> UnsafeMutableRawPointer? {
        let address = mmap(nil, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        return address == MAP_FAILED ? nil : address
    }

    /// Makes the reservation at least `byteCount` bytes (whole `commitStep`s), and says whether it
    /// is and whether `headroom` more bytes of address space are still free beside it, for the
    /// allocator (probed by reserving them and giving them back). A smaller reservation is replaced
    /// only while no buffer is out (between passes); under an address-space limit the new one is as
    /// large as asked and no larger.
    package func reserve(atLeast byteCount: Int, leavingFree headroom: Int = 0) -> Bool {
        let reserved = withState { state in
            guard state.reserved < byteCount else { return true }
            guard state.liveBytes == 0, byteCount <= Int.max - commitStep else { return false }
            let size = (byteCount + commitStep - 1) / commitStep * commitStep
            let (old, oldSize) = (state.base, state.reserved)
            var new = Self.map(size).map { ($0, size) }
            if let old { munmap(old, oldSize) }
            // Where the limit did not hold both ranges: the new one now that the old is gone, else the old again.
            if new == nil { new = Self.map(size).map { ($0, size) } ?? Self.map(oldSize).map { ($0, oldSize) } }
            state = State(peakLiveBytes: state.peakLiveBytes)
            if let new { (state.base, state.reserved) = new }
            return state.reserved >= byteCount
        }
        guard reserved, headroom > 0 else { return reserved }
        guard let probe = Self.map(headroom) else { return false }
        munmap(probe, headroom)
        return true
    }

    /// Admits a pass whose tensors take at most `byteCount` bytes (its memory plan) and which needs
    /// `headroom` bytes of address space free beside the reservation for its other allocations:
    /// the reservation must hold it and the passes admitted before it and not yet ended together
    /// (`reserve(atLeast:leavingFree:)` of their sums). Where it cannot while they run, the pass
    /// waits for them to end; `false` where it cannot even alone. Each `true` is paired with one
    /// `endPass(byteCount:headroom:)` of the same sizes. (A pass that takes another admission before
    /// ending its own may wait for itself.)
    package func admitPass(byteCount: Int, headroom: Int) -> Bool {
        admissions.lock()
        defer { admissions.unlock() }
        while true {
            let (bytes, bytesOverflow) = admitted.bytes.addingReportingOverflow(byteCount)
            let (room, roomOverflow) = admitted.headroom.addingReportingOverflow(headroom)
            if !bytesOverflow, !roomOverflow, reserve(atLeast: bytes, leavingFree: room) {
                admitted.passes += 1
                (admitted.bytes, admitted.headroom) = (bytes, room)
                return true
            }
            guard admitted.passes > 0 else { return false }
            admissions.wait()
        }
    }

    /// Ends a pass admitted by `admitPass(byteCount:headroom:)`, so that the passes waiting may run.
    package func endPass(byteCount: Int, headroom: Int) {
        admissions.lock()
        defer { admissions.unlock() }
        precondition(admitted.passes > 0 && admitted.bytes >= byteCount && admitted.headroom >= headroom,
                     "BufferPool: a pass ended that was not admitted")
        admitted.passes -= 1
        admitted.bytes -= byteCount
        admitted.headroom -= headroom
        admissions.broadcast()
    }

    /// The process's limit on address space (`ulimit -v`, `RLIMIT_AS`) in bytes, as it started
    /// (read once, not at every pass); `nil` for none.
    package static let addressSpaceLimit: Int? = {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }()

    /// Under an address-space limit, glibc's malloc arena per thread (64 MiB of address space each)
    /// would take what the tensors' reservation and the passes' other allocations need: four
    /// threads' passes under `ulimit -v` 260000 KiB were refused, or the process ended part-way.
    /// So there the allocator keeps one arena for every thread, unless `MALLOC_ARENA_MAX` says how
    /// many. Done once, where a model is loaded (evaluating this).
    package static let allocatorArenasLimited: Bool = {
        guard addressSpaceLimit != nil, getenv("MALLOC_ARENA_MAX") == nil else { return false }
        sy_limit_malloc_arenas()
        return true
    }()

    deinit {
        if let base = state.base { munmap(base, state.reserved) }
    }

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// A page-aligned buffer of at least `byteCount` bytes, contents unspecified.
    package func take(byteCount: Int) -> Buffer {
        precondition(byteCount >= 0, "BufferPool: \(byteCount) bytes")
        // Whole pages, and under AddressSanitizer the guard past the end.
        let size = max(1, (byteCount + Self.guardBytes + Self.pageSize - 1) / Self.pageSize) * Self.pageSize
        let carved = withState { state -> UnsafeMutableRawPointer? in
            state.liveBytes += size
            state.peakLiveBytes = max(state.peakLiveBytes, state.liveBytes)
            return carve(size, from: &state).flatMap { offset in state.base.map { $0 + offset } }
        }
        guard let pointer = carved else {
            return Buffer(pointer: UnsafeMutableRawPointer.allocate(byteCount: size, alignment: Self.pageSize), capacity: size)
        }
        sy_address_sanitizer_unpoison(pointer, byteCount)
        sy_address_sanitizer_poison(pointer + byteCount, size - byteCount)
        return Buffer(pointer: pointer, capacity: size)
    }

    /// The offset of `size` bytes for a request: the start of the smallest free range that holds
    /// them, or the top (which first takes in a free range that reaches it); `nil` where the
    /// reservation cannot hold them.
    private func carve(_ size: Int, from state: inout State) -> Int? {
        var best: Int?
        for (index, span) in state.free.enumerated() where span.size >= size {
            if best.map({ span.size < state.free[$0].size }) ?? true { best = index }
        }
        if let best {
            let offset = state.free[best].offset
            state.free[best].offset += size
            state.free[best].size -= size
            if state.free[best].size == 0 { state.free.remove(at: best) }
            state.freeBytes -= size
            return offset
        }
        let reaching = state.free.last.flatMap { $0.end == state.top ? $0 : nil }
        let offset = reaching?.offset ?? state.top
        guard state.base != nil, offset + size <= state.reserved, commit(upTo: offset + size, in: &state) else { return nil }
        if let reaching {
            state.free.removeLast()
            state.freeBytes -= reaching.size
        }
        state.top = offset + size
        return offset
    }

    /// Makes the arena readable and writable up to `end` at least; whether it could.
    private func commit(upTo end: Int, in state: inout State) -> Bool {
        guard end > state.committed, let base = state.base else { return true }
        let target = min(state.reserved, (end + commitStep - 1) / commitStep * commitStep)
        guard mprotect(base + state.committed, target - state.committed, PROT_READ | PROT_WRITE) == 0 else { return false }
        state.committed = target
        return true
    }

    /// Gives back a buffer from `take(byteCount:)`.
    package func give(_ buffer: Buffer) {
        let inArena = withState { state -> Bool in
            state.liveBytes -= buffer.capacity
            guard let base = state.base, buffer.pointer >= base, buffer.pointer < base + state.reserved else { return false }
            sy_address_sanitizer_poison(buffer.pointer, buffer.capacity)
            insertFree(Span(offset: buffer.pointer - base, size: buffer.capacity), into: &state)
            // Past the capacity, the free range at the top goes back to the system (under the lock:
            // once the top is lowered, the next request may take the range).
            guard state.freeBytes > capacityBytes, let last = state.free.last, last.end == state.top else { return true }
            madvise(base + last.offset, last.size, MADV_DONTNEED)
            state.free.removeLast()
            state.freeBytes -= last.size
            state.top = last.offset
            return true
        }
        if !inArena { buffer.pointer.deallocate() }
    }

    /// Adds `span` to the free ranges, merged with those it touches.
    private func insertFree(_ span: Span, into state: inout State) {
        var span = span
        state.freeBytes += span.size
        var index = state.free.partitioningIndex { $0.offset >= span.offset }
        if index < state.free.count, state.free[index].offset == span.end {
            span.size += state.free[index].size
            state.free.remove(at: index)
        }
        if index > 0, state.free[index - 1].end == span.offset {
            index -= 1
            span = Span(offset: state.free[index].offset, size: state.free[index].size + span.size)
            state.free.remove(at: index)
        }
        state.free.insert(span, at: index)
    }

    /// Bytes in free ranges now.
    package var freeBytes: Int { withState { $0.freeBytes } }

    /// Bytes in buffers handed out and not given back: now, and the most ever at once.
    package var liveBytes: (now: Int, peak: Int) { withState { ($0.liveBytes, $0.peakLiveBytes) } }

    /// The address space reserved for the arena: the most bytes of tensors it can hold at once (0
    /// where none could be reserved).
    package var reservedBytes: Int { withState { $0.reserved } }

    /// The arena's extent: the bytes below its top, in use or free (0 without a reservation).
    package var arenaBytes: Int { withState { $0.top } }
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
