import Foundation
import Testing
import YOLOKernels

/// The vectorized exp and activations against the C library's `exp` in double precision.
@Suite struct VectorMathTests {
    @Test func vectorExpIsWithinTwoUlpOverTheFloatRange() {
        var worst: Double = 0, worstAt: Float = 0
        // Down to where the results are subnormal, then 0 (e^x < 2^-150 rounds to 0 below x ≈ -103.97).
        var x: Float = -105
        while x < 88 {
            let lanes = FloatVector((0..<FloatVector.scalarCount).map { x + Float($0) * 0.0013 })
            let result = vectorExp(lanes)
            for lane in 0..<FloatVector.scalarCount {
                let exact = Foundation.exp(Double(lanes[lane]))
                let ulp = Double(max(Float(exact).ulp, .leastNonzeroMagnitude))
                let error = abs(Double(result[lane]) - exact) / ulp
                if error > worst { (worst, worstAt) = (error, lanes[lane]) }
            }
            x += 0.0173
        }
        #expect(worst <= 2, "worst error \(worst) ulp at x = \(worstAt)")
        let inputs: [Float] = [-1000, -89, 0, 1, 89, 1000, -0.0, .leastNonzeroMagnitude]
        let extremes = inputs.map { vectorExp(FloatVector(repeating: $0))[0] }
        #expect(extremes[0] == 0 && extremes[1] < 1e-38 && extremes[1] > 0)
        #expect(extremes[2] == 1 && abs(extremes[3] - 2.7182817) < 3e-7)
        #expect(extremes[4].isFinite && extremes[4] > 2e38 && extremes[5].isFinite)
        #expect(extremes[6] == 1 && extremes[7] == 1)
    }

    /// SiLU and the sigmoid run on `vectorOnePlusExp`, whose negated reduction, exponent-field scale
    /// and fused `e^r · 2^n + 1` must change no result: every 4096th float bit pattern, both signs, NaNs and infinities
    /// included, against the same formulas on `vectorExp`.
    @Test func logisticFunctionsEqualTheirFormulasOnVectorExpBitForBit() {
        var siluDiffers = 0, sigmoidDiffers = 0, firstDifference: Float?
        var pattern: UInt32 = 0
        repeat {
            let x = FloatVector((0..<FloatVector.scalarCount).map { Float(bitPattern: pattern &+ UInt32($0) &* 4096) })
            let silu = vectorSiLU(x), sigmoid = vectorSigmoid(x)
            let expectedSiLU = x / (1 + vectorExp(-x)), expectedSigmoid = 1 / (1 + vectorExp(-x))
            for lane in 0..<FloatVector.scalarCount {
                func same(_ a: Float, _ b: Float) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }
                if !same(silu[lane], expectedSiLU[lane]) { siluDiffers += 1; firstDifference = firstDifference ?? x[lane] }
                if !same(sigmoid[lane], expectedSigmoid[lane]) { sigmoidDiffers += 1; firstDifference = firstDifference ?? x[lane] }
            }
            pattern = pattern &+ UInt32(FloatVector.scalarCount * 4096)
        } while pattern != 0
        #expect(siluDiffers == 0 && sigmoidDiffers == 0, "\(siluDiffers) SiLU and \(sigmoidDiffers) sigmoid results differ, first at \(String(describing: firstDifference))")
        // Where the two exponentials themselves agree, and where they do not.
        let agreeing = FloatVector((0..<FloatVector.scalarCount).map { -86 + Float($0) * 10.9 })
        #expect(vectorOnePlusExp(negating: -agreeing) == 1 + vectorExp(agreeing))
        #expect(vectorOnePlusExp(negating: FloatVector(repeating: -88))[0] == 1 + vectorExp(FloatVector(repeating: 88))[0])
        #expect(vectorOnePlusExp(negating: FloatVector(repeating: 100))[0] == 1)
    }

    @Test(arguments: [0, 1, 7, 8, 9, 31, 1000])
    func biasAndActivationMatchTheDefinition(count: Int) {
        var generator = SeededGenerator(seed: UInt64(count))
        let input = randomValues(count, in: -30...30, using: &generator)
        for activation in [Activation.identity, .silu] {
            var values = input
            values.withUnsafeMutableBufferPointer { addBiasAndActivate($0.baseAddress!, count: count, bias: 0.75, activation: activation) }
            for (value, x) in zip(values, input) {
                let z = Double(x + 0.75)
                let expected = activation == .silu ? z / (1 + Foundation.exp(-z)) : z
                #expect(abs(Double(value) - expected) <= 4e-7 * max(1, abs(expected)), "\(activation) of \(x + 0.75)")
            }
        }
    }

    /// With a residual, the epilogue is `act(x + bias) + residual`: the same activation, then the sum.
    @Test(arguments: [1, 9, 31, 1000])
    func biasActivationAndResidualMatchTheSeparateSteps(count: Int) {
        var generator = SeededGenerator(seed: UInt64(count) &+ 99)
        let input = randomValues(count, in: -30...30, using: &generator), residual = randomValues(count, using: &generator)
        for activation in [Activation.identity, .silu] {
            var fused = input, separate = input
            residual.withUnsafeBufferPointer { residual in
                fused.withUnsafeMutableBufferPointer {
                    addBiasAndActivate($0.baseAddress!, count: count, bias: 0.75, activation: activation, adding: residual.baseAddress!)
                }
            }
            separate.withUnsafeMutableBufferPointer { addBiasAndActivate($0.baseAddress!, count: count, bias: 0.75, activation: activation) }
            #expect(fused == zip(separate, residual).map(+), "\(activation), \(count) values")
        }
    }

    /// Out of place and in place, with whole vectors and a tail.
    @Test func sigmoidMatchesTheDefinition() {
        let input: [Float] = (0..<37).map { Float($0) - 18.5 }
        var values = [Float](repeating: .nan, count: input.count)
        input.withUnsafeBufferPointer { source in
            values.withUnsafeMutableBufferPointer { sigmoid(source.baseAddress!, count: source.count, into: $0.baseAddress!) }
        }
        for (value, x) in zip(values, input) {
            #expect(abs(Double(value) - 1 / (1 + Foundation.exp(-Double(x)))) < 1e-7)
        }
        var inPlace = input
        inPlace.withUnsafeMutableBufferPointer { sigmoid($0.baseAddress!, count: $0.count, into: $0.baseAddress!) }
        #expect(inPlace == values)
    }
}
