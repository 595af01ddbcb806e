import YOLOKernels

/// Ultralytics' `Attention` (the multi-head self-attention of PSA blocks), over the `N = H·W`
/// positions of a `[1, C, H, W]` map:
/// per head, `q, k, v = split(qkv(x))`, `A = softmax((q·s)ᵀ k)`, `out = v Aᵀ`; then
/// `proj(cat_heads(out) + pe(v))`, where `pe` is a depthwise 3×3 positional convolution.
struct Attention: Module {
    let qkv: Conv
    let proj: Conv
    let pe: Conv
    let heads: Int
    let keyDimension: Int
    let headDimension: Int
    /// `keyDimension^(-1/2)`.
    let scale: Float

    init(_ weights: WeightScope, dimension: Int, heads: Int = 8, attentionRatio: Double = 0.5) throws {
        self.heads = heads
        headDimension = dimension / heads
        keyDimension = Int(Double(headDimension) * attentionRatio)
        scale = 1 / Float(keyDimension).squareRoot()
        let qkvChannels = dimension + 2 * keyDimension * heads
        qkv = try Conv(weights.child("qkv"), inputChannels: dimension, outputChannels: qkvChannels)
        proj = try Conv(weights.child("proj"), inputChannels: dimension, outputChannels: dimension)
        pe = try Conv(weights.child("pe"), inputChannels: dimension, outputChannels: dimension, kernelSize: 3, groups: dimension)
    }

    func callAsFunction(_ x: Tensor) -> Tensor {
        let (channels, height, width) = x.chw
        let n = height * width
        let qkvMap = qkv(x)  // [heads · (2·kd + hd), N]: per head q [kd, N], k [kd, N], v [hd, N]
        let values = Tensor.featureMap(channels: channels, height: height, width: width, zeroed: false)  // v of every head, [C, N]
        let attended = Tensor.featureMap(channels: channels, height: height, width: width, zeroed: false)
        ComputeThreads.parallelFor(heads) { head in
            attend(head: head, qkv: qkvMap.data, positions: n, values: values.data, attended: attended.data)
        }
        return proj(pe(values, adding: attended))
    }

    /// One head: `out = v · softmax((q·s)ᵀ k)ᵀ` into the head's channels of `attended`, and its `v`
    /// into the same channels of `values`. Both products run on the active kernel set's packed GEMM
    /// (its left operand packed here, `k` transposed as it is packed), and the scores are formed
    /// transposed, keys down the rows, so that each query's softmax runs down a column and the second
    /// product reads them as they lie. The queries are scaled before the product, as Ultralytics does.
    /// Every weight is the same number whatever the block of queries it was formed in.
    private func attend(head: Int, qkv: UnsafePointer<Float>, positions n: Int,
                        values: UnsafeMutablePointer<Float>, attended: UnsafeMutablePointer<Float>) {
        let kernels = KernelSet.active
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
    private static func queriesPerBlock(positions n: Int) -> Int {
        min(n, max(16, 65_536 / n / 16 * 16))
    }

    var parameterCount: Int { qkv.parameterCount + proj.parameterCount + pe.parameterCount }

    /// The three convolutions plus, per head, the `[N, kd] x [kd, N]` scores and `[hd, N] x [N, N]` mix.
    /// Each head running at once holds its weights for one block of queries, `[N, block]`, counted twice
    /// over since the buffer pool may serve a request with a free buffer of up to twice its size, its
    /// scaled queries `[kd, N]`, and its packed keys and values (`N` and `hd` rows rounded up to whole
    /// panels); the block holds the `qkv` map and the values and attended maps besides.
    func scratchBytes(_ size: (Int, Int)) -> Int {
        let n = size.0 * size.1
        let perHead = 2 * n * Self.queriesPerBlock(positions: n) + keyDimension * n + PackedMatrix.floatCount(rows: n, depth: keyDimension)
            + PackedMatrix.floatCount(rows: headDimension, depth: n)
        let maps = heads * (2 * keyDimension + headDimension) * n + 2 * heads * headDimension * n
        return (min(heads, ComputeThreads.count) * perHead + maps) * MemoryLayout<Float>.stride
    }

    func flops(_ size: (Int, Int)) -> Int {
        let n = size.0 * size.1
        return qkv.flops(size) + proj.flops(size) + pe.flops(size) + heads * 2 * n * n * (keyDimension + headDimension)
    }
}
