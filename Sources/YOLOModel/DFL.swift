import Foundation
import YOLOKernels

/// Ultralytics' `DFL` (distribution focal loss integral): each box side is predicted as a distribution
/// over `bins` distances; the side's length is the expectation `Σ_j w_j · softmax(logits)_j`, with
/// `w` the layer's fixed 1×1 convolution weights (`0, 1, …, bins − 1` in every checkpoint).
struct DFL: Sendable {
    let weights: [Float]
    var bins: Int { weights.count }

    init(_ weights: WeightScope, bins: Int = 16) throws {
        self.weights = try weights.tensor("conv.weight", shape: [1, bins, 1, 1]).values
    }

    /// The expected distance for one side from its `bins` logits, each `stride` floats apart.
    func expectation(_ logits: UnsafePointer<Float>, stride: Int) -> Float {
        var maximum = -Float.infinity
        for j in 0..<bins { maximum = max(maximum, logits[j * stride]) }
        var exponentials = [Float](repeating: 0, count: bins)
        var sum: Float = 0
        for j in 0..<bins {
            exponentials[j] = expf(logits[j * stride] - maximum)
            sum += exponentials[j]
        }
        var expectation: Float = 0
        for j in 0..<bins { expectation += weights[j] * (exponentials[j] / sum) }
        return expectation
    }

    var parameterCount: Int { weights.count }
}
