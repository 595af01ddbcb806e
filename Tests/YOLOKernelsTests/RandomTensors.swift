import TestSupport
import YOLOKernels

/// The kernel tests' generator.
typealias SeededGenerator = SplitMix64

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
