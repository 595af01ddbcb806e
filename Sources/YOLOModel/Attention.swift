import YOLOKernels

/// Ultralytics' `Attention` (the multi-head self-attention of PSA blocks), over the `N = H·W`
/// positions of a `[1, C, H, W]` map:
/// per head, `q, k, v = split(qkv(x))`, `A = softmax((q·s)ᵀ k)`, `out = v Aᵀ` (`AttentionHeads`); then
/// `proj(cat_heads(out) + pe(v))`, where `pe` is a depthwise 3×3 positional convolution.
struct Attention: Module {
    let qkv: Conv
    let proj: Conv
    let pe: Conv
    let heads: AttentionHeads

    init(_ weights: WeightScope, dimension: Int, heads: Int = 8, attentionRatio: Double = 0.5) throws {
        let headDimension = dimension / heads
        self.heads = AttentionHeads(count: heads, keyDimension: Int(Double(headDimension) * attentionRatio), headDimension: headDimension)
        qkv = try Conv(weights.child("qkv"), inputChannels: dimension, outputChannels: self.heads.inputChannels)
        proj = try Conv(weights.child("proj"), inputChannels: dimension, outputChannels: dimension)
        pe = try Conv(weights.child("pe"), inputChannels: dimension, outputChannels: dimension, kernelSize: 3, groups: dimension)
    }

    func callAsFunction(_ x: Tensor) -> Tensor {
        let (values, attended) = heads(qkv(x))
        return proj(pe(values, adding: attended))
    }

    var parameterCount: Int { qkv.parameterCount + proj.parameterCount + pe.parameterCount }

    /// The `qkv` map, held while the heads read it, and the heads' scratch (`AttentionHeads.scratchBytes`)
    /// or the convolutions', whichever is more.
    func scratchBytes(_ size: (Int, Int), running: Int) -> Int {
        let n = size.0 * size.1
        let convolutions = max(qkv.scratchBytes(size, running: running), pe.scratchBytes(size, running: running), proj.scratchBytes(size, running: running))
        return heads.inputChannels * n * MemoryLayout<Float>.stride + max(heads.scratchBytes(positions: n, threads: running), convolutions)
    }

    func flops(_ size: (Int, Int)) -> Int {
        qkv.flops(size) + proj.flops(size) + pe.flops(size) + heads.flops(positions: size.0 * size.1)
    }
}
