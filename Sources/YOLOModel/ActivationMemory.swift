import YOLOTensor

/// Why an input's activations cannot be held, found before its pass from the memory plan
/// (`DetectionModel.plannedActivationBytes`): more than the caller's limit, or more than the
/// tensor arena could reserve under the process's address-space limit (`ulimit -v`), where an
/// allocation would fail part-way and end the process.
package struct ActivationMemoryShortfall: Error, Equatable, Sendable {
    package enum Bound: Equatable, Sendable {
        /// The caller's limit, `limitBytes` (`--max-memory`, `DetectionOptions.memoryLimit`).
        case limit(limitBytes: Int)
        /// The address space the arena could reserve (`BufferPool.reserve(atLeast:)`), under the
        /// process's limit `limitBytes` (`ulimit -v`; `nil` for none).
        case addressSpace(limitBytes: Int?)
    }

    package let plannedBytes: Int
    package let bound: Bound

    package init(plannedBytes: Int, bound: Bound) {
        (self.plannedBytes, self.bound) = (plannedBytes, bound)
    }

    /// `plannedBytes` that the arena could not reserve under this process's address-space limit.
    static func overAddressSpace(plannedBytes: Int) -> ActivationMemoryShortfall {
        ActivationMemoryShortfall(plannedBytes: plannedBytes, bound: .addressSpace(limitBytes: BufferPool.addressSpaceLimit))
    }

    /// `about 30.2 MB for activations, over the memory limit of 20.0 MB`, with `limitName` naming
    /// the caller's limit; or `…, which this process could not reserve under its address-space
    /// limit (ulimit -v) of 131.8 MB` (with room left for the rest of the pass).
    package func explanation(limitName: String = "the memory limit") -> String {
        let planned = "about \(formattedByteCount(plannedBytes)) for activations"
        switch bound {
        case let .limit(limit):
            return "\(planned), over \(limitName) of \(formattedByteCount(limit))"
        case let .addressSpace(limit?):
            return "\(planned), which this process could not reserve under its address-space limit (ulimit -v) of \(formattedByteCount(limit))"
        case .addressSpace(nil):
            return "\(planned), which this process could not reserve"
        }
    }
}

extension DetectionModel {
    /// What keeps a `height × width` input from being run, checked before anything of its size is
    /// allocated: its memory plan (times `passes` run at once, as a server's workers run them) over
    /// `limit` (if given), or more than `pool` can reserve for their tensors
    /// (`BufferPool.reserve(atLeast:)`, which reserves them); `nil` where they fit.
    package func activationMemoryShortfall(height: Int, width: Int, limit: Int?, passes: Int = 1,
                                           pool: BufferPool = .shared) -> ActivationMemoryShortfall? {
        do {
            let planned = try plannedActivationBytes(height: height, width: width, passes: passes, within: limit)
            guard pool.reserve(atLeast: planned, leavingFree: Self.allocatorHeadroom(planned: planned, passes: passes)) else {
                return .overAddressSpace(plannedBytes: planned)
            }
            return nil
        } catch {
            return error
        }
    }

    /// Runs `pass`, a forward pass of a `height × width` input with whatever it allocates, once its
    /// activations fit: checked as `activationMemoryShortfall` does (throwing the shortfall), and,
    /// under an address-space limit, admitted against the arena's reservation beside the passes
    /// other threads are running (`BufferPool.admitPass`), waiting for them where it fits only
    /// alone. The admission ends when `pass` has returned, its tensors given back.
    package func runWithActivationMemory<Result>(height: Int, width: Int, limit: Int?, pool: BufferPool = .shared,
                                                 _ pass: () throws -> Result) throws -> Result {
        guard BufferPool.addressSpaceLimit != nil else {
            if let shortfall = activationMemoryShortfall(height: height, width: width, limit: limit, pool: pool) { throw shortfall }
            return try pass()
        }
        let planned = try plannedActivationBytes(height: height, width: width, passes: 1, within: limit)
        let headroom = Self.allocatorHeadroom(planned: planned, passes: 1)
        guard pool.admitPass(byteCount: planned, headroom: headroom) else { throw ActivationMemoryShortfall.overAddressSpace(plannedBytes: planned) }
        defer { pool.endPass(byteCount: planned, headroom: headroom) }
        return try pass()
    }

    /// The memory plan of `passes` passes of a `height × width` input run at once (`Int.max` where
    /// the product overflows), checked against the caller's `limit`.
    private func plannedActivationBytes(height: Int, width: Int, passes: Int,
                                        within limit: Int?) throws(ActivationMemoryShortfall) -> Int {
        let (product, overflow) = plannedActivationBytes(height: height, width: width).multipliedReportingOverflow(by: passes)
        let planned = overflow ? Int.max : product
        if let limit, planned > limit { throw ActivationMemoryShortfall(plannedBytes: planned, bound: .limit(limitBytes: limit)) }
        return planned
    }

    /// Under an address-space limit, the room to leave free beside the tensors of `passes` passes
    /// planned at `planned` bytes together, for their other allocations (the canvas, the head's
    /// decoding, the selection), which would otherwise fail part-way and end the process; none
    /// without a limit.
    static func allocatorHeadroom(planned: Int, passes: Int) -> Int {
        BufferPool.addressSpaceLimit == nil ? 0 : passes * allocatorHeadroom + planned / 8
    }

    /// The address space left free beside the tensors under a limit, besides an eighth of the plan:
    /// at 640 × 640, bus.jpg's pass aborted with the plan's 40 MB reserved and 5 MB less than it
    /// runs with (`ulimit -v` 155000 against 160000 KiB).
    static let allocatorHeadroom = 16 << 20
}
