/// The baseline kernel set: code for any x86-64 (SSE2) and the path an aarch64 build runs.
/// Eight-float vectors (two registers each), a micro-kernel of two passes of 4 rows, and no fused
/// multiply-add on x86-64, where fusing without the instruction would be a library call per lane.
enum InstructionSet {
    static let name = "baseline"
    #if arch(arm64)
    static let instructions = "NEON (aarch64)"
    static let fusedMultiplyAdd = true
    #else
    static let instructions = "SSE2 (any x86-64)"
    static let fusedMultiplyAdd = false
    #endif
}

typealias FloatVector = SIMD8<Float>

/// Rows of the GEMM micro-kernel's tile per pass.
@inline(__always) var microkernelRows: Int { 4 }

/// `a · b + c`, lane by lane: one rounding on aarch64, where every core fuses; on x86-64 a multiply
/// and an add.
#if arch(arm64)
@inline(__always) func multiplyAdd(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>) -> SIMD8<Float> { c.addingProduct(a, b) }
@inline(__always) func multiplyAdd(_ a: SIMD16<Float>, _ b: SIMD16<Float>, _ c: SIMD16<Float>) -> SIMD16<Float> { c.addingProduct(a, b) }
#else
@inline(__always) func multiplyAdd(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>) -> SIMD8<Float> { a * b + c }
@inline(__always) func multiplyAdd(_ a: SIMD16<Float>, _ b: SIMD16<Float>, _ c: SIMD16<Float>) -> SIMD16<Float> { a * b + c }
#endif
