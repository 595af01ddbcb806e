import YOLOKernels

/// Ultralytics' `PSABlock`: `x + attn(x)`, then `+ ffn(·)` with `ffn = Conv(c, 2c) → Conv(2c, c, act=False)`
/// (each sum only when the shortcut is on).
struct PSABlock: Module {
    let attention: Attention
    let ffn: Sequential
    let addsShortcut: Bool

    init(_ weights: WeightScope, channels: Int, attentionRatio: Double = 0.5, heads: Int = 4, shortcut: Bool = true) throws {
        attention = try Attention(weights.child("attn"), dimension: channels, heads: heads, attentionRatio: attentionRatio)
        ffn = Sequential(modules: [
            try Conv(weights.child("ffn").child(0), inputChannels: channels, outputChannels: 2 * channels),
            try Conv(weights.child("ffn").child(1), inputChannels: 2 * channels, outputChannels: channels),
        ])
        addsShortcut = shortcut
    }

    func callAsFunction(_ x: Tensor) -> Tensor {
        let y = addsShortcut ? x.adding(attention(x)) : attention(x)
        return addsShortcut ? y.adding(ffn(y)) : ffn(y)
    }

    var parameterCount: Int { attention.parameterCount + ffn.parameterCount }

    func flops(_ size: (Int, Int)) -> Int { attention.flops(size) + ffn.flops(size) }

    func scratchBytes(_ size: (Int, Int), running: Int) -> Int { max(attention.scratchBytes(size, running: running), ffn.scratchBytes(size, running: running)) }
}
