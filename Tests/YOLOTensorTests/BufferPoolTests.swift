import CAddressSanitizer
import Foundation
import Synchronization
import Testing
import YOLOTensor

/// The tensor arena: a request takes the smallest free range that holds it, from the range's start;
/// ranges given back merge; the top takes in a free range that reaches it; past the capacity the top
/// range goes back to the system; without a reservation, or past it, requests get buffers of their own.
@Suite struct BufferPoolTests {
    static let page = 4096

    /// A request of `pages` pages, with or without AddressSanitizer's guard of a cache line after it.
    static func bytes(pages: Int) -> Int { pages * page - 64 }

    /// Whether `buffer` lies in the arena at `offset` pages from `first`, the arena's first buffer.
    static func isAt(_ buffer: BufferPool.Buffer, pages offset: Int, from first: BufferPool.Buffer) -> Bool {
        buffer.pointer == first.pointer + offset * page
    }

    @Test func sizesAreWholePages() {
        let pool = BufferPool(capacityBytes: 1 << 30)
        let page = Self.page, guardBytes = sy_address_sanitizer_enabled() != 0 ? 64 : 0
        for (bytes, pages) in [(0, 1), (1, 1), (page - guardBytes, 1), (page - guardBytes + 1, 2), (10 * page - guardBytes - 4, 10)] {
            let buffer = pool.take(byteCount: bytes)
            #expect(buffer.capacity == pages * Self.page, "\(bytes) bytes")
            #expect(Int(bitPattern: buffer.pointer) % Self.page == 0)
            pool.give(buffer)
        }
    }

    @Test func bestFitCarvesFromTheStartOfTheSmallestFreeRange() {
        let pool = BufferPool(capacityBytes: 1 << 30)
        let a = pool.take(byteCount: Self.bytes(pages: 5))
        let b = pool.take(byteCount: Self.bytes(pages: 1))
        let c = pool.take(byteCount: Self.bytes(pages: 3))
        let d = pool.take(byteCount: Self.bytes(pages: 1))
        #expect(Self.isAt(b, pages: 5, from: a) && Self.isAt(c, pages: 6, from: a) && Self.isAt(d, pages: 9, from: a))
        pool.give(a)  // free: 5 pages at 0
        pool.give(c)  // and 3 at 6
        let e = pool.take(byteCount: Self.bytes(pages: 2))  // the 3-page range is the smallest that holds it, not the first
        #expect(Self.isAt(e, pages: 6, from: a))
        let f = pool.take(byteCount: Self.bytes(pages: 1))  // what is left of it
        #expect(Self.isAt(f, pages: 8, from: a))
        let g = pool.take(byteCount: Self.bytes(pages: 4))
        #expect(Self.isAt(g, pages: 0, from: a))
        #expect(pool.arenaBytes == 10 * Self.page, "the top did not move")
        for buffer in [b, d, e, f, g] { pool.give(buffer) }
        #expect(pool.liveBytes.now == 0)
        #expect(pool.freeBytes == pool.arenaBytes)
    }

    @Test func freeRangesMergeWithTheirNeighbours() {
        let pool = BufferPool(capacityBytes: 1 << 30)
        let buffers = (0..<4).map { _ in pool.take(byteCount: Self.bytes(pages: 1)) }
        let last = pool.take(byteCount: Self.bytes(pages: 1))  // holds the top
        pool.give(buffers[1])
        pool.give(buffers[3])
        pool.give(buffers[2])  // merges with both sides: pages 1–3
        let whole = pool.take(byteCount: Self.bytes(pages: 3))
        #expect(Self.isAt(whole, pages: 1, from: buffers[0]))
        #expect(pool.arenaBytes == 5 * Self.page)
        for buffer in [buffers[0], whole, last] { pool.give(buffer) }
        #expect(pool.freeBytes == 5 * Self.page)
        let all = pool.take(byteCount: Self.bytes(pages: 5))  // everything merged into one range
        #expect(Self.isAt(all, pages: 0, from: buffers[0]))
        pool.give(all)
    }

    @Test func theTopTakesInAFreeRangeThatReachesIt() {
        let pool = BufferPool(capacityBytes: 1 << 30)
        let a = pool.take(byteCount: Self.bytes(pages: 1))
        let b = pool.take(byteCount: Self.bytes(pages: 2))
        pool.give(b)
        let c = pool.take(byteCount: Self.bytes(pages: 5))  // larger than any free range: b's, then three more
        #expect(Self.isAt(c, pages: 1, from: a))
        #expect(pool.arenaBytes == 6 * Self.page)
        #expect(pool.freeBytes == 0)
        pool.give(a)
        pool.give(c)
    }

    @Test func pastTheCapacityTheTopRangeGoesBack() {
        let pool = BufferPool(capacityBytes: 2 * Self.page)
        let a = pool.take(byteCount: Self.bytes(pages: 1))
        let b = pool.take(byteCount: Self.bytes(pages: 4))
        pool.give(b)  // 4 free pages at the top, over the capacity of 2
        #expect(pool.arenaBytes == Self.page)
        #expect(pool.freeBytes == 0)
        pool.give(a)  // 1 free page: kept
        #expect(pool.freeBytes == Self.page)
        let c = pool.take(byteCount: Self.bytes(pages: 3))  // the released range is taken again, zero-filled
        #expect(c.pointer == a.pointer)
        let floats = c.pointer.bindMemory(to: Float.self, capacity: Self.bytes(pages: 3) / 4)
        for i in stride(from: 0, to: Self.bytes(pages: 3) / 4, by: 97) { floats[i] = Float(i) }
        #expect(floats[97] == 97)
        pool.give(c)
    }

    /// Without a reservation (or where the system refuses every size), or past its end, a request
    /// gets memory of its own, freed when given back.
    @Test func withoutRoomABufferOfItsOwn() {
        let unreserved = BufferPool(capacityBytes: 1 << 30, reservingBytes: 0)
        let buffer = unreserved.take(byteCount: Self.bytes(pages: 10))
        buffer.pointer.initializeMemory(as: UInt8.self, repeating: 7, count: Self.bytes(pages: 10))
        #expect(unreserved.liveBytes.now == 10 * Self.page)
        #expect(unreserved.arenaBytes == 0)
        #expect(unreserved.reservedBytes == 0)
        unreserved.give(buffer)
        #expect(unreserved.liveBytes.now == 0)

        let small = BufferPool(capacityBytes: 1 << 30, reservingBytes: 64 << 20)
        #expect(small.reservedBytes == 64 << 20)
        let inside = small.take(byteCount: Self.bytes(pages: 48 << 8))
        let outside = small.take(byteCount: Self.bytes(pages: 32 << 8))  // past the reservation's end
        #expect(outside.pointer < inside.pointer || outside.pointer >= inside.pointer + (64 << 20))
        outside.pointer.initializeMemory(as: UInt8.self, repeating: 1, count: Self.bytes(pages: 32 << 8))
        #expect(small.liveBytes.now == 80 << 20)
        small.give(outside)
        small.give(inside)
        let again = small.take(byteCount: Self.bytes(pages: 48 << 8))
        #expect(again.pointer == inside.pointer)
        small.give(again)
    }

    /// `reserve(atLeast:)` (a memory plan's bytes, under an address-space limit): a pool without a
    /// reservation gets one of whole 4 MiB steps; a larger one replaces it only while no buffer is
    /// out, and then serves requests from its own start; a smaller request keeps what is there.
    @Test func reservationsGrowBetweenPasses() {
        let pool = BufferPool(capacityBytes: 1 << 30, reservingBytes: 0)
        #expect(pool.reservedBytes == 0)
        #expect(pool.reserve(atLeast: 10 << 20))
        #expect(pool.reservedBytes == 12 << 20)
        let first = pool.take(byteCount: Self.bytes(pages: 4))
        #expect(pool.arenaBytes == 4 * Self.page, "served from the arena")
        #expect(!pool.reserve(atLeast: 100 << 20), "a buffer is out")
        #expect(pool.reservedBytes == 12 << 20)
        first.pointer.initializeMemory(as: UInt8.self, repeating: 3, count: Self.bytes(pages: 4))
        pool.give(first)
        #expect(pool.reserve(atLeast: 100 << 20))
        #expect(pool.reservedBytes == 100 << 20)
        #expect(pool.arenaBytes == 0 && pool.freeBytes == 0, "a new, empty arena")
        let inside = pool.take(byteCount: Self.bytes(pages: 90 << 8))
        #expect(pool.arenaBytes == 90 << 20)
        inside.pointer.initializeMemory(as: UInt8.self, repeating: 5, count: Self.bytes(pages: 90 << 8))
        pool.give(inside)
        #expect(pool.reserve(atLeast: 1 << 20))
        #expect(pool.reservedBytes == 100 << 20)
        #expect(pool.liveBytes.now == 0)
        // The headroom beside it is probed, not kept.
        #expect(pool.reserve(atLeast: 1 << 20, leavingFree: 64 << 20))
        #expect(!pool.reserve(atLeast: 1 << 20, leavingFree: 1 << 62), "no system grants 4 EiB")
        #expect(pool.reservedBytes == 100 << 20)
    }

    /// `admitPass` (passes run at once, under an address-space limit): plans that fit the reservation
    /// together run together; one that fits only alone waits, while the others hold buffers, for
    /// them to end; one that no reservation can hold is refused.
    @Test func passesAreAdmittedTogetherOnlyWhereTheyFit() {
        let pool = BufferPool(capacityBytes: 1 << 30, reservingBytes: 0)
        #expect(pool.admitPass(byteCount: 6 << 20, headroom: 0))
        #expect(pool.reservedBytes == 8 << 20)
        let held = pool.take(byteCount: Self.bytes(pages: 256))  // the first pass's tensor
        #expect(pool.admitPass(byteCount: 2 << 20, headroom: 0), "6 + 2 MiB fit in 8")
        pool.endPass(byteCount: 2 << 20, headroom: 0)

        // The waiting pass blocks its thread, so it gets a thread of its own: on one of Swift
        // concurrency's few shared threads it would keep other tests' tasks from running.
        final class Outcome: Sendable {
            let firstEnded = Atomic(false), admitted = Atomic(false), afterTheFirst = Atomic(false)
            let done = DispatchSemaphore(value: 0)
        }
        let outcome = Outcome()
        Thread {
            // 4 MiB fit in 8 alone but not beside the first's 6, and the reservation cannot grow
            // while `held` is out.
            outcome.admitted.store(pool.admitPass(byteCount: 4 << 20, headroom: 0), ordering: .sequentiallyConsistent)
            outcome.afterTheFirst.store(outcome.firstEnded.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
            outcome.done.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.1)
        outcome.firstEnded.store(true, ordering: .sequentiallyConsistent)
        pool.give(held)
        pool.endPass(byteCount: 6 << 20, headroom: 0)
        outcome.done.wait()
        let admitted = outcome.admitted.load(ordering: .sequentiallyConsistent)
        let afterTheFirst = outcome.afterTheFirst.load(ordering: .sequentiallyConsistent)
        #expect(admitted && afterTheFirst, "admitted only once the first pass had ended")
        #expect(pool.reservedBytes == 8 << 20)
        pool.endPass(byteCount: 4 << 20, headroom: 0)
        #expect(!pool.admitPass(byteCount: 1 << 62, headroom: 0), "no system grants 4 EiB")
        #expect(pool.admitPass(byteCount: 1 << 20, headroom: 0), "nothing left admitted by the refusal")
        pool.endPass(byteCount: 1 << 20, headroom: 0)
    }

    /// Under AddressSanitizer (`make sanitize-address`), every byte that no tensor holds is poisoned:
    /// past a buffer's bytes, and the whole of a buffer given back.
    @Test(.enabled(if: sy_address_sanitizer_enabled() != 0, "a build with AddressSanitizer"))
    func bytesNoTensorHoldsArePoisoned() {
        let pool = BufferPool(capacityBytes: 1 << 30)
        let buffer = pool.take(byteCount: 100)
        #expect(sy_address_sanitizer_is_poisoned(buffer.pointer) == 0)
        #expect(sy_address_sanitizer_is_poisoned(buffer.pointer + 99) == 0)
        #expect(sy_address_sanitizer_is_poisoned(buffer.pointer + 100) != 0)
        #expect(sy_address_sanitizer_is_poisoned(buffer.pointer + Self.page - 1) != 0)
        pool.give(buffer)
        #expect(sy_address_sanitizer_is_poisoned(buffer.pointer) != 0)
        let again = pool.take(byteCount: Self.bytes(pages: 2))
        #expect(again.pointer == buffer.pointer)
        #expect(sy_address_sanitizer_is_poisoned(again.pointer + Self.page + 5) == 0)
        pool.give(again)
    }

    /// Threads taking and giving at once never get overlapping ranges.
    @Test func threadsNeverShareARange() async {
        let pool = BufferPool(capacityBytes: 1 << 30)
        await withTaskGroup(of: Bool.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    var generator = SystemRandomNumberGenerator()
                    var intact = true
                    for round in 0..<200 {
                        let bytes = Int.random(in: 1...Self.bytes(pages: 6), using: &generator)
                        let buffer = pool.take(byteCount: bytes)
                        let mark = UInt8(truncatingIfNeeded: thread &* 31 &+ round)
                        buffer.pointer.initializeMemory(as: UInt8.self, repeating: mark, count: bytes)
                        usleep(20)
                        let bytesSeen = UnsafeRawBufferPointer(start: buffer.pointer, count: bytes)
                        if bytesSeen.contains(where: { $0 != mark }) { intact = false }
                        pool.give(buffer)
                    }
                    return intact
                }
            }
            for await intact in group { #expect(intact) }
        }
        #expect(pool.liveBytes.now == 0)
        #expect(pool.freeBytes == pool.arenaBytes, "every range given back merged into one")
    }
}
