/// `count` consecutive rows of a GEMM's right operand `B`, `stride` floats apart, the first at
/// `first`. A product can read `B` from several such pieces — the channels of a concatenation's
/// parts, say — as if they were one matrix.
package struct GEMMInputRows {
    package let first: UnsafePointer<Float>
    package let count: Int
    package let stride: Int

    package init(first: UnsafePointer<Float>, count: Int, stride: Int) {
        self.first = first
        self.count = count
        self.stride = stride
    }
}

/// What `packedGEMM` does to each result on its way out of the registers.
package enum GEMMEpilogue {
    /// Stores `A · B` as it is.
    case none
    /// Stores `activation(A · B + bias[row])`: a convolution's bias and activation, with no second
    /// pass over its output.
    case biasActivation(bias: UnsafePointer<Float>, activation: Activation)
    /// Stores `activation((C + A · B) + bias[row])`, `C` the value it held: the last of several
    /// products summed into `C`, as a 1×1 convolution over parts read at different sizes does.
    case accumulateBiasActivation(bias: UnsafePointer<Float>, activation: Activation)

    /// The activation applied after the bias, if any.
    package var activation: Activation? {
        switch self {
        case .none: nil
        case let .biasActivation(_, activation), let .accumulateBiasActivation(_, activation): activation
        }
    }
}

/// What `packedGEMM` asks the caches for ahead of its reads, where its operands are not in cache
/// yet. (Where they are, the requests only cost: the callers say which is which.)
package struct GEMMPrefetch: OptionSet, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// `A`, the packed filters, read from memory: a layer's first blocks on each thread (the later
    /// ones find them in the core's cache where they fit). The first panel's lines are asked for
    /// before it starts, and each column tile asks for its share of the next panel's.
    package static let filters = GEMMPrefetch(rawValue: 1 << 0)
    /// `B`'s rows, read straight from a layer's input: the first panel asks for the next column
    /// tile's lines of every row as it reads this one. The rows lie a plane apart, each a separate
    /// run of lines, more of them than the hardware prefetchers follow.
    package static let inputRows = GEMMPrefetch(rawValue: 1 << 1)

    /// `filters` for block `block` of a layer's `parallelFor` on `threads` threads where it is among
    /// the first the threads claim (one each), else nothing. (The caller passes the count it read
    /// before the job: `ComputeThreads.count` takes the pool's lock, which the threads claiming
    /// the job's chunks hold in turn.)
    package static func filters(forBlock block: Int, threads: Int) -> GEMMPrefetch {
        block < threads ? .filters : []
    }
}
