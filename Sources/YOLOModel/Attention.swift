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
    /// into the same channels of `values`.
    private func attend(head: Int, qkv: UnsafePointer<Float>, positions n: Int,
                        values: UnsafeMutablePointer<Float>, attended: UnsafeMutablePointer<Float>) {
        let scores = Tensor(uninitializedShape: [n, n])
        let scaledQueries = Tensor(uninitializedShape: [keyDimension, n])
        let q = qkv + head * (2 * keyDimension + headDimension) * n
        let k = q + keyDimension * n
        let v = k + keyDimension * n
        for i in 0..<(keyDimension * n) { scaledQueries.data[i] = q[i] * scale }
        // [N, kd] x [kd, N] -> [N, N]: scores[i, j] = Σ_d (q·s)[d, i] k[d, j]
        sgemm(m: n, n: n, k: keyDimension, a: scaledQueries.data, lda: n, transposeA: true, b: k, ldb: n, c: scores.data, ldc: n)
        KernelSet.active.softmaxRowsInPlace(scores.data, rows: n, columns: n)
        // [hd, N] x [N, N]ᵀ -> [hd, N]: out[c, i] = Σ_j v[c, j] A[i, j]
        sgemm(m: headDimension, n: n, k: n, a: v, lda: n, b: scores.data, ldb: n, transposeB: true,
              c: attended + head * headDimension * n, ldc: n)
        (values + head * headDimension * n).update(from: v, count: headDimension * n)
    }

    var parameterCount: Int { qkv.parameterCount + proj.parameterCount + pe.parameterCount }

    /// The three convolutions plus, per head, the `[N, kd] x [kd, N]` scores and `[hd, N] x [N, N]` mix.
    /// Each head running at once holds its `[N, N]` scores, counted twice over since the buffer pool
    /// may serve a request with a free buffer of up to twice its size, and its scaled queries
    /// `[kd, N]`; the block holds the `qkv` map and the values and attended maps besides.
    func scratchBytes(_ size: (Int, Int)) -> Int {
        let n = size.0 * size.1
        let perHead = 2 * n * n + keyDimension * n
        let maps = heads * (2 * keyDimension + headDimension) * n + 2 * heads * headDimension * n
        return (min(heads, ComputeThreads.count) * perHead + maps) * MemoryLayout<Float>.stride
    }

    func flops(_ size: (Int, Int)) -> Int {
        let n = size.0 * size.1
        return qkv.flops(size) + proj.flops(size) + pe.flops(size) + heads * 2 * n * n * (keyDimension + headDimension)
    }
}
