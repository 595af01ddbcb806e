import Foundation
import Testing
import YOLOKernels

/// The vectorized exp and activations against the C library's `exp` in double precision.
@Suite struct VectorMathTests {
    /// `e^x` of every float in `xs` by the kernel set's vector exponential.
    static func exponentials(_ xs: [Float], _ kernels: KernelSet) -> [Float] {
        var result = [Float](repeating: .nan, count: xs.count)
        xs.withUnsafeBufferPointer { x in result.withUnsafeMutableBufferPointer { kernels.exponentials(x.baseAddress!, count: x.count, into: $0.baseAddress!) } }
        return result
    }

    @Test(arguments: kernelSetsUnderTest)
    func vectorExpIsWithinTwoUlpOverTheFloatRange(kernels: KernelSet) {
        guard runs(kernels) else { return }
        // Down to where the results are subnormal, then 0 (e^x < 2^-150 rounds to 0 below x ≈ -103.97).
        var inputs: [Float] = []
        for step in 0..<11_166 {
            let x = -105 + Float(step) * 0.0173
            for lane in 0..<kernels.vectorLanes { inputs.append(x + Float(lane) * 0.0013) }
        }
        let results = Self.exponentials(inputs, kernels)
        var worst: Double = 0, worstAt: Float = 0
        for (x, result) in zip(inputs, results) where x < 88 {
            let exact = Foundation.exp(Double(x))
            let ulp = Double(max(Float(exact).ulp, .leastNonzeroMagnitude))
            let error = abs(Double(result) - exact) / ulp
            if error > worst { (worst, worstAt) = (error, x) }
        }
        #expect(worst <= 2, "\(kernels.name): worst error \(worst) ulp at x = \(worstAt)")
        let extremes = Self.exponentials([-1000, -89, 0, 1, 89, 1000, -0.0, .leastNonzeroMagnitude], kernels)
        #expect(extremes[0] == 0 && extremes[1] < 1e-38 && extremes[1] > 0)
        #expect(extremes[2] == 1 && abs(extremes[3] - 2.7182817) < 3e-7)
        #expect(extremes[4].isFinite && extremes[4] > 2e38 && extremes[5].isFinite)
        #expect(extremes[6] == 1 && extremes[7] == 1)
    }

    /// SiLU and the sigmoid run on `vectorOnePlusExp`, whose negated reduction, exponent-field scale
    /// and fused `e^r · 2^n + 1` must change no result: every 4096th float bit pattern, both signs,
    /// NaNs and infinities included, against the same formulas on the set's `vectorExp` (`x / (1 + e)`
    /// and `1 / (1 + e)` round alike lane by lane and one value at a time).
    @Test(arguments: kernelSetsUnderTest)
    func logisticFunctionsEqualTheirFormulasOnVectorExpBitForBit(kernels: KernelSet) {
        guard runs(kernels) else { return }
        let x = (0..<(1 << 20)).map { Float(bitPattern: UInt32($0) &* 4096) }
        let exponentials = Self.exponentials(x.map { -$0 }, kernels)
        var silu = x, sigmoid = [Float](repeating: .nan, count: x.count)
        silu.withUnsafeMutableBufferPointer { kernels.addBiasAndActivate($0.baseAddress!, count: $0.count, bias: 0, activation: .silu) }
        x.withUnsafeBufferPointer { x in sigmoid.withUnsafeMutableBufferPointer { kernels.sigmoid(x.baseAddress!, count: x.count, into: $0.baseAddress!) } }
        func same(_ a: Float, _ b: Float) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }
        var siluDiffers = 0, sigmoidDiffers = 0, firstDifference: Float?
        for i in x.indices {
            // The sum with a zero bias, as the SiLU loop forms it (x + 0 turns −0 into +0; e^−x is 1 for both).
            let z = x[i] + 0
            if !same(silu[i], z / (1 + exponentials[i])) { siluDiffers += 1; firstDifference = firstDifference ?? x[i] }
            if !same(sigmoid[i], 1 / (1 + exponentials[i])) { sigmoidDiffers += 1; firstDifference = firstDifference ?? x[i] }
        }
        #expect(siluDiffers == 0 && sigmoidDiffers == 0,
                "\(kernels.name): \(siluDiffers) SiLU and \(sigmoidDiffers) sigmoid results differ, first at \(String(describing: firstDifference))")
    }

    @Test(arguments: [0, 1, 7, 8, 9, 31, 1000], kernelSetsUnderTest)
    func biasAndActivationMatchTheDefinition(count: Int, kernels: KernelSet) {
        guard runs(kernels) else { return }
        var generator = SeededGenerator(seed: UInt64(count))
        let input = randomValues(count, in: -30...30, using: &generator)
        for activation in [Activation.identity, .silu] {
            var values = input
            values.withUnsafeMutableBufferPointer { kernels.addBiasAndActivate($0.baseAddress!, count: count, bias: 0.75, activation: activation) }
            for (value, x) in zip(values, input) {
                let z = Double(x + 0.75)
                let expected = activation == .silu ? z / (1 + Foundation.exp(-z)) : z
                #expect(abs(Double(value) - expected) <= 4e-7 * max(1, abs(expected)), "\(activation) of \(x + 0.75)")
            }
        }
    }

    /// With a residual, the epilogue is `act(x + bias) + residual`: the same activation, then the sum.
    @Test(arguments: [1, 9, 31, 1000], kernelSetsUnderTest)
    func biasActivationAndResidualMatchTheSeparateSteps(count: Int, kernels: KernelSet) {
        guard runs(kernels) else { return }
        var generator = SeededGenerator(seed: UInt64(count) &+ 99)
        let input = randomValues(count, in: -30...30, using: &generator), residual = randomValues(count, using: &generator)
        for activation in [Activation.identity, .silu] {
            var fused = input, separate = input
            residual.withUnsafeBufferPointer { residual in
                fused.withUnsafeMutableBufferPointer {
                    kernels.addBiasAndActivate($0.baseAddress!, count: count, bias: 0.75, activation: activation, adding: residual.baseAddress!)
                }
            }
            separate.withUnsafeMutableBufferPointer { kernels.addBiasAndActivate($0.baseAddress!, count: count, bias: 0.75, activation: activation) }
            #expect(fused == zip(separate, residual).map(+), "\(activation), \(count) values")
        }
    }

    /// Out of place and in place, with whole vectors and a tail.
    @Test(arguments: kernelSetsUnderTest)
    func sigmoidMatchesTheDefinition(kernels: KernelSet) {
        guard runs(kernels) else { return }
        let input: [Float] = (0..<37).map { Float($0) - 18.5 }
        var values = [Float](repeating: .nan, count: input.count)
        input.withUnsafeBufferPointer { source in
            values.withUnsafeMutableBufferPointer { kernels.sigmoid(source.baseAddress!, count: source.count, into: $0.baseAddress!) }
        }
        for (value, x) in zip(values, input) {
            #expect(abs(Double(value) - 1 / (1 + Foundation.exp(-Double(x)))) < 1e-7)
        }
        var inPlace = input
        inPlace.withUnsafeMutableBufferPointer { kernels.sigmoid($0.baseAddress!, count: $0.count, into: $0.baseAddress!) }
        #expect(inPlace == values)
    }
}
