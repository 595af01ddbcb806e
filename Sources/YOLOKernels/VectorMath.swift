/// The vector the element-wise kernels (activations, exponentials, softmax, DFL, depthwise
/// convolution) work in: sixteen floats where the build targets AVX-512 (`-D SWIFTYOLO_AVX512`, which
/// the Makefile sets on such CPUs, where a 512-bit operation costs what a 256-bit one does), else
/// eight. Every lane is computed alike, so the results do not depend on the width.
#if SWIFTYOLO_AVX512
public typealias FloatVector = SIMD16<Float>
#else
public typealias FloatVector = SIMD8<Float>
#endif

/// Vectorized `e^x`, a `FloatVector` at a time, the Cephes `expf` algorithm: `x = n·ln 2 + r` with
/// `|r| ≤ ln 2 / 2`, `e^r` by a degree-6 polynomial, `2^n` built in the exponent bits. Within 2 ulp
/// of glibc's `expf` over the float range, subnormal results included: inputs are clamped to
/// [−104, 88.376], past which `expf` is 0 (e^−104 rounds to 0 here too) or overflows.
///
/// Written with concrete-vector operators and masks only: the generic helpers (`pointwiseMin`,
/// `clamped`) compile to lane-by-lane calls.
@inlinable @inline(__always)
public func vectorExp(_ x: FloatVector) -> FloatVector {
    var x = x.replacing(with: 88.37626, where: x .> 88.37626)
    x = x.replacing(with: -104, where: x .< -104)
    let (expR, n) = exponentialReduction(x)
    // 2^n for n in [-150, 128], as two factors so that neither exponent field leaves [-126, 127].
    let half = n &>> 1
    let scaleA = unsafeBitCast((half &+ 127) &<< 23, to: FloatVector.self)
    let scaleB = unsafeBitCast((n &- half &+ 127) &<< 23, to: FloatVector.self)
    return expR * scaleA * scaleB
}

/// `e^x` where only `1 + e^x` counts (the logistic functions), bit for bit `vectorExp(x)` for `x` in
/// [−86, 88.376]. Below −86 `e^x` comes out as e^−86 (4.4e−38) instead of smaller: `1 + e^x` is 1
/// either way. In that range `2^n` is one normal number times two (`n` in [−124, 128]), so the
/// scale takes two integer operations where `vectorExp`'s two factors take seven: SiLU, the
/// activation of nearly every convolution, runs on this.
@inlinable @inline(__always)
public func vectorExpForLogistic(_ x: FloatVector) -> FloatVector {
    var x = x.replacing(with: 88.37626, where: x .> 88.37626)
    x = x.replacing(with: -86, where: x .< -86)
    let (expR, n) = exponentialReduction(x)
    return expR * unsafeBitCast((n &+ 126) &<< 23, to: FloatVector.self) * 2
}

/// The reduction shared by the exponentials: `x = n·ln 2 + r`, returned as `e^r` (the Cephes
/// polynomial) and the integer `n` (`x` already clamped to the caller's range).
@inlinable @inline(__always)
func exponentialReduction(_ x: FloatVector) -> (expR: FloatVector, n: FloatVector.MaskStorage) {
    // Round x·log2(e) to the nearest integer n by adding 1.5·2^23: n sits in the low mantissa bits.
    let magic = FloatVector(repeating: 12_582_912)
    let shifted = multiplyAdd(x, FloatVector(repeating: 1.442_695_04), magic)
    let n = shifted - magic
    // r = x − n·ln 2, with ln 2 split in two so that n·ln2_hi is exact.
    let r = multiplyAdd(n, FloatVector(repeating: 2.121_944_40e-4), multiplyAdd(n, FloatVector(repeating: -0.693_359_375), x))
    var p = FloatVector(repeating: 1.987_569_15e-4)
    p = multiplyAdd(p, r, FloatVector(repeating: 1.398_199_95e-3))
    p = multiplyAdd(p, r, FloatVector(repeating: 8.333_451_9e-3))
    p = multiplyAdd(p, r, FloatVector(repeating: 4.166_579_59e-2))
    p = multiplyAdd(p, r, FloatVector(repeating: 1.666_666_55e-1))
    p = multiplyAdd(p, r, FloatVector(repeating: 5.000_000_12e-1))
    return (multiplyAdd(p, r * r, r) + 1, unsafeBitCast(shifted, to: FloatVector.MaskStorage.self) &- 0x4B40_0000)
}

/// SiLU, `x / (1 + e^(−x))`, a vector at a time.
@inlinable @inline(__always)
public func vectorSiLU(_ x: FloatVector) -> FloatVector {
    x / (1 + vectorExpForLogistic(-x))
}

/// The logistic function `1 / (1 + e^(−x))`, a vector at a time.
@inlinable @inline(__always)
public func vectorSigmoid(_ x: FloatVector) -> FloatVector {
    1 / (1 + vectorExpForLogistic(-x))
}

/// The lane-wise maximum of two vectors, with a comparison mask.
@inlinable @inline(__always)
public func lanewiseMax(_ a: FloatVector, _ b: FloatVector) -> FloatVector {
    a.replacing(with: b, where: b .> a)
}

/// `a · b + c`, lane by lane, for the kernels' 8- and 16-float vectors: one fused multiply-add,
/// rounded once, where the build has FMA — always on arm64; on x86-64 when compiled with
/// `-D SWIFTYOLO_FMA` next to a `-target-cpu` that has it, as the Makefile does for AVX2 CPUs — else
/// a multiply and an add (fusing without the instruction would become a library call per lane).
/// `kernelsUseFusedMultiplyAdd` says which (`swift-yolo bench` prints it).
#if arch(arm64) || SWIFTYOLO_FMA
@inlinable @inline(__always) public func multiplyAdd(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>) -> SIMD8<Float> { c.addingProduct(a, b) }
@inlinable @inline(__always) public func multiplyAdd(_ a: SIMD16<Float>, _ b: SIMD16<Float>, _ c: SIMD16<Float>) -> SIMD16<Float> { c.addingProduct(a, b) }
public let kernelsUseFusedMultiplyAdd = true
#else
@inlinable @inline(__always) public func multiplyAdd(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>) -> SIMD8<Float> { a * b + c }
@inlinable @inline(__always) public func multiplyAdd(_ a: SIMD16<Float>, _ b: SIMD16<Float>, _ c: SIMD16<Float>) -> SIMD16<Float> { a * b + c }
public let kernelsUseFusedMultiplyAdd = false
#endif
