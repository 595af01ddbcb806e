import Testing
import YOLOKernels

/// `TransposedConvolution` (1×1 GEMM + depth-to-space) against `nn.ConvTranspose2d`'s definition
/// written out as loops: `out[o, k·y + dy, k·x + dx] = bias[o] + Σ_i in[i, y, x] · W[i, o, dy, dx]`.
@Suite struct TransposedConvolutionTests {
    /// The naive twin, accumulating in double precision.
    static func reference(_ input: Tensor, weights: [Float], bias: [Float], outputChannels: Int, factor k: Int) -> [Float] {
        let (inputChannels, height, width) = input.chw
        let outputWidth = width * k, outputPlane = height * k * outputWidth
        var output = [Float](repeating: 0, count: outputChannels * outputPlane)
        for o in 0..<outputChannels {
            for y in 0..<height {
                for x in 0..<width {
                    for dy in 0..<k {
                        for dx in 0..<k {
                            var sum = Double(bias[o])
                            for i in 0..<inputChannels {
                                sum += Double(input.data[(i * height + y) * width + x]) * Double(weights[((i * outputChannels + o) * k + dy) * k + dx])
                            }
                            output[o * outputPlane + (k * y + dy) * outputWidth + k * x + dx] = Float(sum)
                        }
                    }
                }
            }
        }
        return output
    }

    // (C_in, C_out, k, H, W): Proto's 2× at yolo11n's width, odd sizes, one pixel, k 1 and 3, more
    // outputs than inputs.
    @Test(arguments: [(64, 64, 2, 10, 8), (3, 5, 2, 7, 9), (1, 1, 2, 1, 1), (8, 4, 3, 5, 6), (6, 6, 1, 4, 3), (5, 17, 2, 13, 11)], kernelSetsUnderTest)
    func matchesTheDefinition(_ c: (Int, Int, Int, Int, Int), kernels: KernelSet) {
        guard runs(kernels) else { return }
        let (inputs, outputs, factor, height, width) = c
        var generator = SeededGenerator(seed: UInt64(inputs &* 131 &+ outputs &* 17 &+ factor &* 7 &+ height &* 3 &+ width))
        let input = Tensor.random(shape: [1, inputs, height, width], using: &generator)
        let weights = randomValues(inputs * outputs * factor * factor, using: &generator)
        let bias = randomValues(outputs, using: &generator)
        let fast = TransposedConvolution(inputChannels: inputs, outputChannels: outputs, factor: factor, weights: weights, bias: bias)(input, kernels: kernels)
        #expect(fast.shape == [1, outputs, height * factor, width * factor])
        let expected = Self.reference(input, weights: weights, bias: bias, outputChannels: outputs, factor: factor)
        // fp32 sums of `inputs` products of values in [-1, 1] against a float64 reference.
        let difference = expected.withUnsafeBufferPointer { expected in
            TensorDifference(actual: UnsafeBufferPointer(fast.buffer), expected: expected) { 1e-5 * Float(inputs).squareRoot() + 1e-6 * abs($0) }
        }
        #expect(difference.isWithinTolerance, "\(c) on \(kernels.name): \(difference)")
    }
}
