import YOLOKernels

/// Ultralytics' `C3k` (a `C3` with `k × k` bottlenecks): `cv3(cat(m(cv1(x)), cv2(x)))`.
struct C3k: Module {
    let cv1: Conv
    let cv2: Conv
    let cv3: Conv
    let m: Sequential

    init(_ weights: WeightScope, inputChannels: Int, outputChannels: Int, repeats: Int = 1, shortcut: Bool = true,
         groups: Int = 1, expansion: Double = 0.5, kernelSize: Int = 3) throws {
        let hidden = Int(Double(outputChannels) * expansion)
        cv1 = try Conv(weights.child("cv1"), inputChannels: inputChannels, outputChannels: hidden)
        cv2 = try Conv(weights.child("cv2"), inputChannels: inputChannels, outputChannels: hidden)
        cv3 = try Conv(weights.child("cv3"), inputChannels: 2 * hidden, outputChannels: outputChannels)
        m = Sequential(modules: try (0..<repeats).map { index in
            try Bottleneck(weights.child("m").child(index), inputChannels: hidden, outputChannels: hidden, shortcut: shortcut,
                           groups: groups, kernelSizes: (kernelSize, kernelSize), expansion: 1.0)
        })
    }

    func callAsFunction(_ x: Tensor) -> Tensor {
        cv3(concatenating: [m(cv1(x)), cv2(x)])
    }

    var parameterCount: Int { cv1.parameterCount + cv2.parameterCount + cv3.parameterCount + m.parameterCount }

    func flops(_ size: (Int, Int)) -> Int { cv1.flops(size) + cv2.flops(size) + cv3.flops(size) + m.flops(size) }

    func scratchBytes(_ size: (Int, Int), running: Int) -> Int {
        [cv1.scratchBytes(size, running: running), cv2.scratchBytes(size, running: running), cv3.scratchBytes(size, running: running), m.scratchBytes(size, running: running)].max()!
    }
}
