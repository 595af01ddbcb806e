import YOLOKernels

/// A small deterministic generator (SplitMix64), so every test input is reproducible from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Tensor {
    /// A tensor of uniform values in `range`.
    static func random(shape: [Int], in range: ClosedRange<Float> = -1...1, using generator: inout SeededGenerator) -> Tensor {
        let tensor = Tensor(shape: shape)
        for i in 0..<tensor.count { tensor.data[i] = Float.random(in: range, using: &generator) }
        return tensor
    }
}

func randomValues(_ count: Int, in range: ClosedRange<Float> = -1...1, using generator: inout SeededGenerator) -> [Float] {
    (0..<count).map { _ in Float.random(in: range, using: &generator) }
}
