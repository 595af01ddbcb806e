import YOLOKernels
import YOLOTensor

/// `count` rounded up to whole `FloatVector`s: the floats a loop of whole vectors over `count`
/// floats covers.
@inline(__always)
func wholeVectorCount(_ count: Int) -> Int {
    (count + FloatVector.scalarCount - 1) / FloatVector.scalarCount * FloatVector.scalarCount
}

/// Vectorized `e^x`, a `FloatVector` at a time, the Cephes `expf` algorithm: `x = n·ln 2 + r` with
/// `|r| ≤ ln 2 / 2`, `e^r` by a degree-6 polynomial, `2^n` built in the exponent bits. Within 2 ulp
/// of glibc's `expf` over the float range, subnormal results included: inputs are clamped to
/// [−104, 88.376], past which `expf` is 0 (e^−104 rounds to 0 here too) or overflows.
///
/// Written with concrete-vector operators and masks only: the generic helpers (`pointwiseMin`,
/// `clamped`) compile to lane-by-lane calls.
@inline(__always)
func vectorExp(_ x: FloatVector) -> FloatVector {
    var x = x.replacing(with: 88.37626, where: x .> 88.37626)
    x = x.replacing(with: -104, where: x .< -104)
    let (expR, shifted) = exponentialReduction(x, negated: false, exponentBias: 0)
    let n = unsafeBitCast(shifted, to: FloatVector.MaskStorage.self) &- 0x4B40_0000
    // 2^n for n in [-150, 128], as two factors so that neither exponent field leaves [-126, 127].
    let half = n &>> 1
    let scaleA = unsafeBitCast((half &+ 127) &<< 23, to: FloatVector.self)
    let scaleB = unsafeBitCast((n &- half &+ 127) &<< 23, to: FloatVector.self)
    return expR * scaleA * scaleB
}

/// `1 + e^(−x)`, the denominator of the logistic functions, bit for bit `1 + vectorExp(-x)` for `x`
/// in [−88.376, 86]. Above 86 `e^(−x)` is taken as e^−86 (4.4e−38) instead of smaller: the sum is 1
/// either way. In that range `2^n` is a normal number (`n` in [−124, 127]), so it comes straight out
/// of the rounding's exponent-biased integer `n + 127` by one shift, and the sum is one fused
/// multiply-add, `e^r · 2^n + 1`, rounded once as `(e^r · 2^n) + 1` is (the product is exact) —
/// where `vectorExp`'s two factors take six integer operations and two multiplies. And the reduction
/// runs on `x` with its constants negated, so that SiLU, the activation of nearly every convolution,
/// spends no instruction on negating its input.
@inline(__always)
func vectorOnePlusExp(negating x: FloatVector) -> FloatVector {
    var x = x.replacing(with: -88.37626, where: x .< -88.37626)
    x = x.replacing(with: 86, where: x .> 86)
    let (expR, shifted) = exponentialReduction(x, negated: true, exponentBias: 127)
    let scale = unsafeBitCast(unsafeBitCast(shifted, to: FloatVector.MaskStorage.self) &<< 23, to: FloatVector.self)
    return multiplyAdd(expR, scale, FloatVector(repeating: 1))
}

/// The reduction shared by the exponentials: `±x = n·ln 2 + r`, returned as `e^r` (the Cephes
/// polynomial) and `shifted`, the float `1.5·2^23 + exponentBias + n`, whose low mantissa bits hold
/// the integer `n + exponentBias` (`x` already clamped to the caller's range). With `negated`, the
/// exponential of `−x` from `x`, bit for bit what `−x` would give: every constant that meets `x` or
/// an odd power of `r` has its sign flipped, and negation commutes with rounding.
@inline(__always)
func exponentialReduction(_ x: FloatVector, negated: Bool, exponentBias: Float) -> (expR: FloatVector, shifted: FloatVector) {
    let sign: Float = negated ? -1 : 1
    // Round ±x·log2(e) to the nearest integer n by adding 1.5·2^23 (+ the bias, an integer): n sits
    // in the low mantissa bits.
    let magic = FloatVector(repeating: 12_582_912 + exponentBias)
    let shifted = multiplyAdd(x, FloatVector(repeating: sign * 1.442_695_04), magic)
    let n = shifted - magic
    // ±r = x ∓ n·ln 2, with ln 2 split in two so that n·ln2_hi is exact.
    let signedR = multiplyAdd(n, FloatVector(repeating: sign * 2.121_944_40e-4), multiplyAdd(n, FloatVector(repeating: sign * -0.693_359_375), x))
    // e^r = 1 + r + r²·p(r), Cephes' degree-5 p, evaluated in ±r (the odd coefficients carry the
    // sign) by Estrin's scheme: three pairs, then two steps in r², so that the chain of dependent
    // operations is three fused multiply-adds long where Horner's rule makes it five.
    @inline(__always) func c(_ value: Float) -> FloatVector { FloatVector(repeating: value) }
    let r2 = signedR * signedR
    let p01 = multiplyAdd(c(sign * 1.666_666_55e-1), signedR, c(5.000_000_12e-1))
    let p23 = multiplyAdd(c(sign * 8.333_451_9e-3), signedR, c(4.166_579_59e-2))
    let p45 = multiplyAdd(c(sign * 1.987_569_15e-4), signedR, c(1.398_199_95e-3))
    let p = multiplyAdd(multiplyAdd(p45, r2, p23), r2, p01)
    // −v as a sign flip, which the compiler folds into the fused multiply-add (SIMD's `-v` is `0 − v`).
    let r = negated ? unsafeBitCast(unsafeBitCast(signedR, to: FloatVector.MaskStorage.self) ^ Int32.min, to: FloatVector.self) : signedR
    return (multiplyAdd(p, r2, r) + 1, shifted)
}

/// SiLU, `x / (1 + e^(−x))`, a vector at a time.
@inline(__always)
func vectorSiLU(_ x: FloatVector) -> FloatVector {
    x / vectorOnePlusExp(negating: x)
}

/// The logistic function `1 / (1 + e^(−x))`, a vector at a time.
@inline(__always)
func vectorSigmoid(_ x: FloatVector) -> FloatVector {
    1 / vectorOnePlusExp(negating: x)
}

/// The lane-wise maximum of two vectors, with a comparison mask.
@inline(__always)
func lanewiseMax(_ a: FloatVector, _ b: FloatVector) -> FloatVector {
    a.replacing(with: b, where: b .> a)
}
