/// Ultralytics' `Proto` (`ultralytics.nn.modules.block.Proto`): the mask prototypes of a Segment head,
/// `cv3(cv2(upsample(cv1(x))))`: a 3×3 Conv, a 2× transposed convolution, a 3×3 Conv and a 1×1 Conv,
/// from the finest level `[1, C, H/8, W/8]` to `[1, nm, H/4, W/4]`.
struct Proto: Module {
    let cv1: Conv
    let upsample: ConvTranspose2d
    let cv2: Conv
    let cv3: Conv

    /// - Parameters:
    ///   - hiddenChannels: `c_` (Segment's `npr` after width scaling).
    ///   - outputChannels: the prototypes, `nm`.
    init(_ weights: WeightScope, inputChannels: Int, hiddenChannels: Int, outputChannels: Int) throws {
        cv1 = try Conv(weights.child("cv1"), inputChannels: inputChannels, outputChannels: hiddenChannels, kernelSize: 3)
        upsample = try ConvTranspose2d(weights.child("upsample"), inputChannels: hiddenChannels, outputChannels: hiddenChannels, factor: 2)
        cv2 = try Conv(weights.child("cv2"), inputChannels: hiddenChannels, outputChannels: hiddenChannels, kernelSize: 3)
        cv3 = try Conv(weights.child("cv3"), inputChannels: hiddenChannels, outputChannels: outputChannels)
    }

    private var stages: Sequential { Sequential(modules: [cv1, upsample, cv2, cv3]) }

    func callAsFunction(_ x: Tensor) -> Tensor { stages(x) }

    var parameterCount: Int { stages.parameterCount }

    func outputSize(_ size: (Int, Int)) -> (Int, Int) { stages.outputSize(size) }

    func flops(_ size: (Int, Int)) -> Int { stages.flops(size) }

    func scratchBytes(_ size: (Int, Int), running: Int) -> Int { stages.scratchBytes(size, running: running) }
}
