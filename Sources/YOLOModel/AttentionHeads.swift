import YOLOKernels

/// The heads of Ultralytics' `Attention`, between its convolutions: over a `qkv` map that holds, per
/// head, `q [kd, N]`, `k [kd, N]` and `v [hd, N]` for the `N = H·W` positions, each head's
/// `out = v · softmax((q·s)ᵀ k)ᵀ`, with `s = kd^(-1/2)`.
package struct AttentionHeads: Sendable {
    package let count: Int
    package let keyDimension: Int
    package let headDimension: Int
    /// `keyDimension^(-1/2)`.
    package let scale: Float

    package init(count: Int, keyDimension: Int, headDimension: Int) {
        self.count = count
        self.keyDimension = keyDimension
        self.headDimension = headDimension
        scale = 1 / Float(keyDimension).squareRoot()
    }

    /// Channels of the `qkv` map the heads read.
    package var inputChannels: Int { count * (2 * keyDimension + headDimension) }

    /// The `v` of every head, `[count·hd, H, W]` (what the positional convolution reads), and every
    /// head's `out` in the same channels, from a `[inputChannels, H, W]` map, on `kernels`.
    package func callAsFunction(_ qkv: Tensor, kernels: KernelSet = .active) -> (values: Tensor, attended: Tensor) {
        let (channels, height, width) = qkv.chw
        precondition(channels == inputChannels, "attention heads read \(inputChannels) channels, not \(channels)")
        let n = height * width
        let values = Tensor.featureMap(channels: count * headDimension, height: height, width: width, zeroed: false)
        let attended = Tensor.featureMap(channels: count * headDimension, height: height, width: width, zeroed: false)
        ComputeThreads.parallelFor(count) { head in
            attend(head: head, qkv: qkv.data, positions: n, values: values.data, attended: attended.data, kernels: kernels)
        }
        return (values, attended)
    }

    /// One head: `out = v · softmax((q·s)ᵀ k)ᵀ` into the head's channels of `attended`, and its `v`
    /// into the same channels of `values`. Both products run on the kernel set's packed GEMM (its left
    /// operand packed here, `k` transposed as it is packed), and the scores are formed transposed, keys
    /// down the rows, so that each query's softmax runs down a column and the second product reads them
    /// as they lie. The queries are scaled before the product, as Ultralytics does. Every weight is the
    /// same number whatever the block of queries it was formed in.
    private func attend(head: Int, qkv: UnsafePointer<Float>, positions n: Int,
                        values: UnsafeMutablePointer<Float>, attended: UnsafeMutablePointer<Float>, kernels: KernelSet) {
        let q = qkv + head * (2 * keyDimension + headDimension) * n
        let k = q + keyDimension * n
        let v = k + keyDimension * n
        let scaledQueries = Tensor(uninitializedShape: [keyDimension, n])
        for i in 0..<(keyDimension * n) { scaledQueries.data[i] = q[i] * scale }
        // [N, kd] x [kd, N] -> [N, N]: weights[j, i] = Σ_d k[d, j] (q·s)[d, i], key j and query i.
        let (keyDimension, panelRows) = (keyDimension, PackedMatrix.panelRows)
        let keys = PackedMatrix(rows: n, depth: keyDimension) { j, destination in
            for d in 0..<keyDimension { (destination + d * panelRows).initialize(to: k[d * n + j]) }
        }
        // [hd, N] x [N, N] -> [hd, N]: out[c, i] = Σ_j v[c, j] weights[j, i]
        let packedValues = PackedMatrix(rows: headDimension, depth: n, matrix: v, rowStride: n)
        let out = attended + head * headDimension * n
        // A block of queries at a time: its columns of the weights are formed, softmaxed and multiplied
        // while they are in the second-level cache, and only they are ever held.
        let block = Self.queriesPerBlock(positions: n)
        let weights = Tensor(uninitializedShape: [n, block])
        for first in stride(from: 0, to: n, by: block) {
            let width = min(block, n - first)
            kernels.packedGEMM(keys, panels: 0..<keys.panels, b: scaledQueries.data + first, bRowStride: n, columns: width,
                               c: weights.data, rowStride: width, epilogue: .none)
            kernels.softmaxColumnsInPlace(weights.data, rows: n, columns: width)
            kernels.packedGEMM(packedValues, panels: 0..<packedValues.panels, b: weights.data, bRowStride: width, columns: width,
                               c: out + first, rowStride: n, epilogue: .none)
        }
        (values + head * headDimension * n).update(from: v, count: headDimension * n)
    }

    /// Queries per block: their `N` weights each in 256 KiB (160 at YOLO11n's N = 400, 32 at
    /// N = 1,600), in whole 16-float vectors, at least 16 and at most `N`.
    package static func queriesPerBlock(positions n: Int) -> Int {
        min(n, max(16, 65_536 / n / 16 * 16))
    }

    /// Per head, the `[N, kd] x [kd, N]` scores and the `[hd, N] x [N, N]` mix.
    package func flops(positions n: Int) -> Int {
        count * 2 * n * n * (keyDimension + headDimension)
    }

    /// Each head running at once holds its weights for one block of queries, `[N, block]`, counted
    /// twice over since the buffer pool may serve a request with a free buffer of up to twice its
    /// size, its scaled queries `[kd, N]`, and its packed keys and values (`N` and `hd` rows rounded up
    /// to whole panels); besides them, the values and attended maps.
    package func scratchBytes(positions n: Int, threads: Int) -> Int {
        let perHead = 2 * n * Self.queriesPerBlock(positions: n) + keyDimension * n + PackedMatrix.floatCount(rows: n, depth: keyDimension)
            + PackedMatrix.floatCount(rows: headDimension, depth: n)
        return (min(count, threads) * perHead + 2 * count * headDimension * n) * MemoryLayout<Float>.stride
    }
}
