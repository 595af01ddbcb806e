import YOLOKernels

/// Ultralytics' `SPPF` (spatial pyramid pooling, fast): `y0 = cv1(x)`, `y_i = maxpool_k(y_(i-1))` for
/// `i = 1…n`, then `cv2(cat(y0…yn))`, plus `x` when the shortcut is on and the channels match.
struct SPPF: Module {
    let cv1: Conv
    let cv2: Conv
    let kernelSize: Int
    let poolings: Int
    let addsShortcut: Bool

    init(_ weights: WeightScope, inputChannels: Int, outputChannels: Int, kernelSize: Int = 5, poolings: Int = 3, shortcut: Bool = false) throws {
        let hidden = inputChannels / 2
        cv1 = try Conv(weights.child("cv1"), inputChannels: inputChannels, outputChannels: hidden)
        cv2 = try Conv(weights.child("cv2"), inputChannels: hidden * (poolings + 1), outputChannels: outputChannels)
        self.kernelSize = kernelSize
        self.poolings = poolings
        addsShortcut = shortcut && inputChannels == outputChannels
    }

    func callAsFunction(_ x: Tensor) -> Tensor {
        var parts = [cv1(x)]
        for _ in 0..<poolings {
            parts.append(parts[parts.count - 1].maxPooled(kernelSize: kernelSize, padding: kernelSize / 2))
        }
        let y = cv2(concatenating: parts)
        return addsShortcut ? y.adding(x) : y
    }

    var parameterCount: Int { cv1.parameterCount + cv2.parameterCount }

    func flops(_ size: (Int, Int)) -> Int { cv1.flops(size) + cv2.flops(size) }

    func scratchBytes(_ size: (Int, Int), running: Int) -> Int { max(cv1.scratchBytes(size, running: running), cv2.scratchBytes(size, running: running)) }
}
