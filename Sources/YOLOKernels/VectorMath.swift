/// Vectorized `e^x` for eight floats at a time, the Cephes `expf` algorithm: `x = n·ln 2 + r` with
/// `|r| ≤ ln 2 / 2`, `e^r` by a degree-6 polynomial, `2^n` built in the exponent bits. Within 2 ulp
/// of glibc's `expf` over the float range, subnormal results included: inputs are clamped to
/// [−104, 88.376], past which `expf` is 0 (e^−104 rounds to 0 here too) or overflows.
///
/// Written with concrete `SIMD8<Float>` operators and masks only: the generic helpers
/// (`pointwiseMin`, `clamped`) compile to lane-by-lane calls.
@inline(__always)
public func vectorExp(_ x: SIMD8<Float>) -> SIMD8<Float> {
    var x = x.replacing(with: 88.37626, where: x .> 88.37626)
    x = x.replacing(with: -104, where: x .< -104)
    // Round x·log2(e) to the nearest integer n by adding 1.5·2^23: n sits in the low mantissa bits.
    let magic = SIMD8<Float>(repeating: 12_582_912)
    let shifted = multiplyAdd(x, SIMD8(repeating: 1.442_695_04), magic)
    let n = shifted - magic
    // r = x − n·ln 2, with ln 2 split in two so that n·ln2_hi is exact.
    let r = multiplyAdd(n, SIMD8(repeating: 2.121_944_40e-4), multiplyAdd(n, SIMD8(repeating: -0.693_359_375), x))
    var p = SIMD8<Float>(repeating: 1.987_569_15e-4)
    p = multiplyAdd(p, r, SIMD8(repeating: 1.398_199_95e-3))
    p = multiplyAdd(p, r, SIMD8(repeating: 8.333_451_9e-3))
    p = multiplyAdd(p, r, SIMD8(repeating: 4.166_579_59e-2))
    p = multiplyAdd(p, r, SIMD8(repeating: 1.666_666_55e-1))
    p = multiplyAdd(p, r, SIMD8(repeating: 5.000_000_12e-1))
    let expR = multiplyAdd(p, r * r, r) + 1
    // 2^n for n in [-150, 128], as two factors so that neither exponent field leaves [-126, 127].
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

/// The lane-wise maximum of two vectors, with a comparison mask.
@inline(__always)
public func lanewiseMax(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
    a.replacing(with: b, where: b .> a)
}

/// `a · b + c`, eight lanes: one fused multiply-add, rounded once, where the build has FMA — always
/// on arm64; on x86-64 when compiled with `-D SWIFTYOLO_FMA` next to a `-target-cpu` that has it, as
/// the Makefile does for AVX2 CPUs — else a multiply and an add (fusing without the instruction
/// would become a library call per lane).
@inline(__always)
public func multiplyAdd(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>) -> SIMD8<Float> {
    #if arch(arm64) || SWIFTYOLO_FMA
    c.addingProduct(a, b)
    #else
    a * b + c
    #endif
}

/// Whether `multiplyAdd` is one fused instruction in this build (`swift-yolo bench` says so).
public var kernelsUseFusedMultiplyAdd: Bool {
    #if arch(arm64) || SWIFTYOLO_FMA
    true
    #else
    false
    #endif
}
