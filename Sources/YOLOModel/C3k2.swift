import YOLOKernels

/// Ultralytics' `C3k2` (a `C2f` whose inner blocks are `Bottleneck`s, `C3k`s or `Bottleneck` + `PSABlock`):
/// `y = split(cv1(x), 2)`, each inner block appends `m_i(y.last)`, then `cv2(cat(y))`.
struct C3k2: Module {
    let cv1: Conv
    let cv2: Conv
    let m: [any Module]
    /// Channels of each half of `cv1`'s output: `Int(C_out · e)`.
    let hidden: Int

    /// - Parameters:
    ///   - usesC3k: inner blocks are `C3k(c, c, 2)` instead of `Bottleneck(c, c)`.
    ///   - attention: inner blocks are `Bottleneck(c, c)` then `PSABlock(c)` with `max(c / 64, 1)` heads
    ///     (YOLO26's `attn`; it takes precedence over `usesC3k`, as in Ultralytics).
    init(_ weights: WeightScope, inputChannels: Int, outputChannels: Int, repeats: Int = 1, usesC3k: Bool = false,
         expansion: Double = 0.5, attention: Bool = false, groups: Int = 1, shortcut: Bool = true) throws {
        hidden = Int(Double(outputChannels) * expansion)
        cv1 = try Conv(weights.child("cv1"), inputChannels: inputChannels, outputChannels: 2 * hidden)
        cv2 = try Conv(weights.child("cv2"), inputChannels: (2 + repeats) * hidden, outputChannels: outputChannels)
        let hidden = hidden
        m = try (0..<repeats).map { index -> any Module in
            let scope = weights.child("m").child(index)
            if attention {
                return Sequential(modules: [
                    try Bottleneck(scope.child(0), inputChannels: hidden, outputChannels: hidden, shortcut: shortcut, groups: groups),
                    try PSABlock(scope.child(1), channels: hidden, attentionRatio: 0.5, heads: max(hidden / 64, 1)),
                ])
            }
            return usesC3k
                ? try C3k(scope, inputChannels: hidden, outputChannels: hidden, repeats: 2, shortcut: shortcut, groups: groups)
                : try Bottleneck(scope, inputChannels: hidden, outputChannels: hidden, shortcut: shortcut, groups: groups)
        }
    }

    func callAsFunction(_ x: Tensor) -> Tensor { blocks(cv1(x)) }

    /// `cv1` reads the parts of `x` where they lie (the neck's upsampled maps and skip connections).
    func callAsFunction(_ x: FeatureMap) -> FeatureMap { FeatureMap(blocks(cv1(x).tensor)) }

    /// The rest after `cv1`: its output split, the inner blocks, `cv2` over them all.
    private func blocks(_ y: Tensor) -> Tensor {
        var parts = [y.channels(0..<hidden), y.channels(hidden..<(2 * hidden))]
        for block in m { parts.append(block(parts[parts.count - 1])) }
        return cv2(concatenating: parts)
    }

    var parameterCount: Int { cv1.parameterCount + cv2.parameterCount + m.reduce(0) { $0 + $1.parameterCount } }

    /// The inner blocks' attention scores (`attention`), one block at a time.
    func scratchBytes(_ size: (Int, Int), running: Int) -> Int {
        m.reduce(max(cv1.scratchBytes(size, running: running), cv2.scratchBytes(size, running: running))) { max($0, $1.scratchBytes(size, running: running)) }
    }

    func flops(_ size: (Int, Int)) -> Int { cv1.flops(size) + cv2.flops(size) + m.reduce(0) { $0 + $1.flops(size) } }
}
