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
