import YOLOKernels

/// Ultralytics' `Bottleneck`: `cv2(cv1(x))`, plus `x` when the shortcut is on and the channel counts match.
struct Bottleneck: Module {
    let cv1: Conv
    let cv2: Conv
    let addsShortcut: Bool

    /// - Parameters:
    ///   - kernelSizes: of `cv1` and `cv2` (`(3, 3)` by default; C3 uses `(1, 3)`).
    ///   - expansion: hidden channels = `Int(outputChannels · expansion)`.
    init(_ weights: WeightScope, inputChannels: Int, outputChannels: Int, shortcut: Bool = true, groups: Int = 1,
         kernelSizes: (Int, Int) = (3, 3), expansion: Double = 0.5) throws {
        let hidden = Int(Double(outputChannels) * expansion)
        cv1 = try Conv(weights.child("cv1"), inputChannels: inputChannels, outputChannels: hidden, kernelSize: kernelSizes.0)
        cv2 = try Conv(weights.child("cv2"), inputChannels: hidden, outputChannels: outputChannels, kernelSize: kernelSizes.1, groups: groups)
        addsShortcut = shortcut && inputChannels == outputChannels
    }

    func callAsFunction(_ x: Tensor) -> Tensor {
        addsShortcut ? cv2(cv1(x), adding: x) : cv2(cv1(x))
    }

    var parameterCount: Int { cv1.parameterCount + cv2.parameterCount }

    func flops(_ size: (Int, Int)) -> Int { cv1.flops(size) + cv2.flops(size) }

    func scratchBytes(_ size: (Int, Int), running: Int) -> Int { max(cv1.scratchBytes(size, running: running), cv2.scratchBytes(size, running: running)) }
}
