import Foundation
import Testing
import YOLOKernels
import YOLOModel

/// The attention heads of the PSA blocks against the definition, `out = v · softmax((q·s)ᵀ k)ᵀ`, in
/// double precision, on every kernel set: position counts below, at and across the blocks of queries
/// the heads form their weights in (one vector, a column tail, several blocks with a short last one).
@Suite struct AttentionHeadsTests {
    struct Shape: CustomTestStringConvertible, Sendable {
        let heads: Int, keyDimension: Int, headDimension: Int, height: Int, width: Int
        var testDescription: String { "\(heads) heads, kd \(keyDimension), hd \(headDimension), \(height)×\(width)" }
    }

    static let shapes = [
        Shape(heads: 2, keyDimension: 16, headDimension: 32, height: 1, width: 1),
        Shape(heads: 1, keyDimension: 8, headDimension: 8, height: 1, width: 5),
        Shape(heads: 2, keyDimension: 16, headDimension: 32, height: 4, width: 4),
        Shape(heads: 3, keyDimension: 4, headDimension: 12, height: 1, width: 17),
        Shape(heads: 2, keyDimension: 16, headDimension: 16, height: 15, width: 20),  // N = 300, blocks of 208
        Shape(heads: 4, keyDimension: 32, headDimension: 64, height: 20, width: 20),  // YOLO11n's layer 10 at 640: blocks of 160
        Shape(heads: 1, keyDimension: 32, headDimension: 64, height: 40, width: 40),  // blocks of 32
        Shape(heads: 1, keyDimension: 4, headDimension: 4, height: 70, width: 75),    // the least block, 16, with a tail of 2
    ]

    @Test(arguments: shapes, kernelSetsUnderTest)
    func headsMatchTheDefinition(shape: Shape, kernels: KernelSet) {
        guard runs(kernels) else { return }
        let heads = AttentionHeads(count: shape.heads, keyDimension: shape.keyDimension, headDimension: shape.headDimension)
        let (n, kd, hd) = (shape.height * shape.width, shape.keyDimension, shape.headDimension)
        var generator = SeededGenerator(seed: UInt64(n * 131 + kd))
        let qkv = Tensor.random(shape: [1, heads.inputChannels, shape.height, shape.width], in: -3...3, using: &generator)
        let (values, attended) = heads(qkv, kernels: kernels)

        var worst = 0.0, worstAt = ""
        var valuesDiffer = 0
        for head in 0..<shape.heads {
            let q = (head * (2 * kd + hd)) * n, k = q + kd * n, v = k + kd * n
            for i in 0..<n {
                // Scores of query i over every key, in double, and the size of their terms, which scales
                // the float scores' rounding (each weight's relative error).
                var scores = [Double](repeating: 0, count: n), termSize = 0.0
                for j in 0..<n {
                    var sum = 0.0, size = 0.0
                    for d in 0..<kd {
                        let term = Double(qkv.data[q + d * n + i] * heads.scale) * Double(qkv.data[k + d * n + j])
                        sum += term
                        size += abs(term)
                    }
                    scores[j] = sum
                    termSize = max(termSize, size)
                }
                let largest = scores.max()!
                let exponentials = scores.map { Foundation.exp($0 - largest) }
                let total = exponentials.reduce(0, +)
                for c in 0..<hd {
                    var expected = 0.0
                    for j in 0..<n { expected += Double(qkv.data[v + c * n + j]) * exponentials[j] / total }
                    let got = Double(attended.data[(head * hd + c) * n + i])
                    // v is within ±3 and the weights sum to 1: the products' rounding over N, the weights' over kd.
                    let bound = 3 * (2e-7 * Double(n) + 4e-7 * termSize + 1e-6) + 1e-6 * abs(expected)
                    if abs(got - expected) / bound > worst { (worst, worstAt) = (abs(got - expected) / bound, "head \(head) channel \(c) query \(i)") }
                }
            }
            for index in 0..<(hd * n) where values.data[head * hd * n + index] != qkv.data[v + index] { valuesDiffer += 1 }
        }
        #expect(worst <= 1, "\(kernels.name) \(shape.testDescription): error \(worst)× the bound at \(worstAt)")
        #expect(valuesDiffer == 0, "\(kernels.name) \(shape.testDescription): \(valuesDiffer) values are not v as it is")
        #expect(attended.shape == [1, shape.heads * hd, shape.height, shape.width] && values.shape == attended.shape)
    }
}
