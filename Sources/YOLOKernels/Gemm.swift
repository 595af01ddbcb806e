import CBLAS

/// Row-major single-precision matrix multiply through OpenBLAS:
/// `C[M×N] = alpha · op(A)[M×K] · op(B)[K×N] + beta · C`.
///
/// - Parameters:
///   - transposeA: use Aᵀ, where A is stored `[K×M]` with leading dimension `lda`.
///   - transposeB: use Bᵀ, where B is stored `[N×K]` with leading dimension `ldb`.
@inline(__always)
package func sgemm(
    m: Int, n: Int, k: Int,
    a: UnsafePointer<Float>, lda: Int, transposeA: Bool = false,
    b: UnsafePointer<Float>, ldb: Int, transposeB: Bool = false,
    c: UnsafeMutablePointer<Float>, ldc: Int,
    alpha: Float = 1, beta: Float = 0
) {
    cblas_sgemm(
        CblasRowMajor,
        transposeA ? CblasTrans : CblasNoTrans,
        transposeB ? CblasTrans : CblasNoTrans,
        Int32(m), Int32(n), Int32(k),
        alpha, a, Int32(lda), b, Int32(ldb),
        beta, c, Int32(ldc))
}

/// Sets how many threads OpenBLAS may use for one GEMM (the process-wide pool).
package func setBLASThreadCount(_ count: Int) {
    openblas_set_num_threads(Int32(max(1, count)))
}

/// How many threads OpenBLAS uses now.
package var blasThreadCount: Int { Int(openblas_get_num_threads()) }

/// The CPU kernel family OpenBLAS chose (`Haswell`, `SkylakeX`, `Cooperlake`, …). Its GEMM speed
/// depends on it; the environment variable `OPENBLAS_CORETYPE` can force an older one.
package var blasCoreName: String {
    openblas_get_corename().map { String(cString: $0) } ?? "unknown"
}
