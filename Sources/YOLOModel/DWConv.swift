import YOLOKernels

/// Ultralytics' `DWConv`: a `Conv` with `gcd(C_in, C_out)` groups (depthwise when the two are equal).
enum DWConv {
    static func load(_ weights: WeightScope, inputChannels: Int, outputChannels: Int, kernelSize: Int = 1, stride: Int = 1) throws -> Conv {
        try Conv(weights, inputChannels: inputChannels, outputChannels: outputChannels,
                 kernelSize: kernelSize, stride: stride, groups: greatestCommonDivisor(inputChannels, outputChannels))
    }

    private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        b == 0 ? a : greatestCommonDivisor(b, a % b)
    }
}
