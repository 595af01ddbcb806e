import YOLOKernels

/// Ultralytics' `C2PSA`: `a, b = split(cv1(x))`, `b = m(b)` through `n` PSA blocks, then `cv2(cat(a, b))`.
struct C2PSA: Module {
    let cv1: Conv
    let cv2: Conv
    let m: Sequential
    let hidden: Int

    init(_ weights: WeightScope, inputChannels: Int, outputChannels: Int, repeats: Int = 1, expansion: Double = 0.5) throws {
        guard inputChannels == outputChannels else {
            throw ModelError.invalidDescription(file: weights.loader.file.path,
                                                reason: "\(weights.prefix): C2PSA needs equal input and output channels, got \(inputChannels) and \(outputChannels)")
        }
        hidden = Int(Double(inputChannels) * expansion)
        cv1 = try Conv(weights.child("cv1"), inputChannels: inputChannels, outputChannels: 2 * hidden)
        cv2 = try Conv(weights.child("cv2"), inputChannels: 2 * hidden, outputChannels: inputChannels)
        let hidden = hidden
        m = Sequential(modules: try (0..<repeats).map { index in
            try PSABlock(weights.child("m").child(index), channels: hidden, attentionRatio: 0.5, heads: max(hidden / 64, 1))
        })
    }

    func callAsFunction(_ x: Tensor) -> Tensor {
        let y = cv1(x)
        return cv2(concatenating: [y.channels(0..<hidden), m(y.channels(hidden..<(2 * hidden)))])
    }

    var parameterCount: Int { cv1.parameterCount + cv2.parameterCount + m.parameterCount }

    func flops(_ size: (Int, Int)) -> Int { cv1.flops(size) + cv2.flops(size) + m.flops(size) }

    func scratchBytes(_ size: (Int, Int), running: Int) -> Int { max(cv1.scratchBytes(size, running: running), cv2.scratchBytes(size, running: running), m.scratchBytes(size, running: running)) }
}
