/// The AVX-512 kernel set, compiled for x86-64-v4 (AVX-512 F, BW, DQ, VL): sixteen-float vectors,
/// where a 512-bit operation costs what a 256-bit one does, and 32 registers, so the micro-kernel's
/// 8 × 2-vector tile runs in one pass (16 accumulators beside the loads); fused multiply-adds.
enum InstructionSet {
    static let name = "avx512"
    static let instructions = "x86-64-v4: AVX-512 F/BW/DQ/VL + FMA"
    static let fusedMultiplyAdd = true
}

typealias FloatVector = SIMD16<Float>

/// Rows of the GEMM micro-kernel's tile per pass.
@inline(__always) var microkernelRows: Int { 8 }

/// `a · b + c`, lane by lane, rounded once (`vfmadd`).
@inline(__always) func multiplyAdd(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>) -> SIMD8<Float> { c.addingProduct(a, b) }
@inline(__always) func multiplyAdd(_ a: SIMD16<Float>, _ b: SIMD16<Float>, _ c: SIMD16<Float>) -> SIMD16<Float> { c.addingProduct(a, b) }
