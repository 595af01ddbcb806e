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

    /// The expected distances of `count` anchors at once.
    ///
    /// - Parameters:
    ///   - logits: `bins` planes of `planeSize` floats: bin `j` of anchor `i` at `logits[j · planeSize + i]`.
    ///   - output: `count` distances, one per anchor.
    func expectations(_ logits: UnsafePointer<Float>, planeSize: Int, count: Int, into output: UnsafeMutablePointer<Float>) {
        weights.withUnsafeBufferPointer { weights in
            KernelSet.active.distributionExpectations(logits, planeSize: planeSize, count: count, weights: weights.baseAddress!,
                                                      bins: weights.count, into: output)
        }
    }

    var parameterCount: Int { weights.count }
}
