/// The AVX2 kernel set, compiled for x86-64-v3 (AVX2, FMA, BMI2, F16C): eight-float vectors in the
/// 16 ymm registers, so the micro-kernel's 8 × 2-vector tile runs in passes of 6 rows over groups
/// of panels (12 accumulators beside two loads and a broadcast; 16 would not fit), and fused
/// multiply-adds.
enum InstructionSet {
    static let name = "avx2"
    static let instructions = "x86-64-v3: AVX2 + FMA"
    static let fusedMultiplyAdd = true
}

typealias FloatVector = SIMD8<Float>

/// Rows of the GEMM micro-kernel's tile per pass.
@inline(__always) var microkernelRows: Int { 6 }

/// `a · b + c`, lane by lane, rounded once (`vfmadd`).
@inline(__always) func multiplyAdd(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>) -> SIMD8<Float> { c.addingProduct(a, b) }
@inline(__always) func multiplyAdd(_ a: SIMD16<Float>, _ b: SIMD16<Float>, _ c: SIMD16<Float>) -> SIMD16<Float> { c.addingProduct(a, b) }
