/// Vectorized `e^x` for eight floats at a time, the Cephes `expf` algorithm: `x = n·ln 2 + r` with
/// `|r| ≤ ln 2 / 2`, `e^r` by a degree-6 polynomial, `2^n` built in the exponent bits. Within 2 ulp
/// of glibc's `expf` over the float range (inputs are clamped to ±88.376, where `expf` overflows).
///
/// Written with concrete `SIMD8<Float>` operators and masks only: the generic helpers
/// (`pointwiseMin`, `clamped`) compile to lane-by-lane calls.
@inline(__always)
public func vectorExp(_ x: SIMD8<Float>) -> SIMD8<Float> {
    let limit = SIMD8<Float>(repeating: 88.37626)
    let x = clamp(x, to: limit)
    // Round x·log2(e) to the nearest integer n by adding 1.5·2^23: n sits in the low mantissa bits.
    let magic = SIMD8<Float>(repeating: 12_582_912)
    let shifted = x * 1.442_695_04 + magic
    let n = shifted - magic
    // r = x − n·ln 2, with ln 2 split in two so that n·ln2_hi is exact.
    let r = x - n * 0.693_359_375 + n * 2.121_944_40e-4
    var p = SIMD8<Float>(repeating: 1.987_569_15e-4)
    p = p * r + 1.398_199_95e-3
    p = p * r + 8.333_451_9e-3
    p = p * r + 4.166_579_59e-2
    p = p * r + 1.666_666_55e-1
    p = p * r + 5.000_000_12e-1
    let expR = p * (r * r) + r + 1
    // 2^n for n in [-128, 128], as two factors so that neither exponent field overflows.
    let ni = unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- 0x4B40_0000
    let half = ni &>> 1
    let scaleA = unsafeBitCast((half &+ 127) &<< 23, to: SIMD8<Float>.self)
    let scaleB = unsafeBitCast((ni &- half &+ 127) &<< 23, to: SIMD8<Float>.self)
    return expR * scaleA * scaleB
}

/// SiLU, `x / (1 + e^(−x))`, eight at a time.
@inline(__always)
public func vectorSiLU(_ x: SIMD8<Float>) -> SIMD8<Float> {
    x / (1 + vectorExp(-x))
}

/// The logistic function `1 / (1 + e^(−x))`, eight at a time.
@inline(__always)
public func vectorSigmoid(_ x: SIMD8<Float>) -> SIMD8<Float> {
    1 / (1 + vectorExp(-x))
}

/// `x` clamped to `[−limit, limit]`, with comparison masks (which compile to vector instructions).
@inline(__always)
public func clamp(_ x: SIMD8<Float>, to limit: SIMD8<Float>) -> SIMD8<Float> {
    let y = x.replacing(with: limit, where: x .> limit)
    return y.replacing(with: -limit, where: y .< -limit)
}

/// The lane-wise maximum of two vectors, with a comparison mask.
@inline(__always)
public func lanewiseMax(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
    a.replacing(with: b, where: b .> a)
}
