/// The point-wise non-linearity applied after a convolution.
public enum Activation: Sendable, Equatable {
    /// None: the convolution's output as it is (`act=False` in Ultralytics' `Conv`).
    case identity
    /// SiLU, `x · sigmoid(x)`: Ultralytics' default activation (`nn.SiLU`).
    case silu
}

/// Applies `activation` in place to `count` values.
@inlinable
public func applyActivation(_ activation: Activation, to values: UnsafeMutablePointer<Float>, count: Int) {
    switch activation {
    case .identity: return
    case .silu: siluInPlace(values, count: count)
    }
}

/// `x ← x + bias`, then the activation, in place over `count` floats: the epilogue of a convolution
/// (one pass over its output, vectorized; see `vectorExp`).
public func addBiasAndActivate(_ values: UnsafeMutablePointer<Float>, count: Int, bias: Float, activation: Activation) {
    let raw = UnsafeMutableRawPointer(values)
    let b = SIMD8<Float>(repeating: bias)
    var i = 0
    switch activation {
    case .identity:
        while i + 8 <= count {
            raw.storeBytes(of: raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self) + b, toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
    case .silu:
        while i + 8 <= count {
            raw.storeBytes(of: vectorSiLU(raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self) + b), toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
    }
    guard i < count else { return }
    // The tail goes through the same vector arithmetic, padded.
    var tail = SIMD8<Float>()
    for j in 0..<(count - i) { tail[j] = values[i + j] }
    tail += b
    if activation == .silu { tail = vectorSiLU(tail) }
    for j in 0..<(count - i) { values[i + j] = tail[j] }
}

/// `x ← x / (1 + e^(−x))`, in place.
public func siluInPlace(_ values: UnsafeMutablePointer<Float>, count: Int) {
    addBiasAndActivate(values, count: count, bias: 0, activation: .silu)
}

/// The logistic function `1 / (1 + e^(−x))` of one value, through the same arithmetic as the
/// vector paths.
@inlinable
public func sigmoid(_ x: Float) -> Float { vectorSigmoid(SIMD8(repeating: x))[0] }

/// `x ← 1 / (1 + e^(−x))`, in place, vectorized.
public func sigmoidInPlace(_ values: UnsafeMutablePointer<Float>, count: Int) {
    let raw = UnsafeMutableRawPointer(values)
    var i = 0
    while i + 8 <= count {
        raw.storeBytes(of: vectorSigmoid(raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)), toByteOffset: i * 4, as: SIMD8<Float>.self)
        i += 8
    }
    for j in i..<count { values[j] = sigmoid(values[j]) }
}

/// Softmax over each of `rows` contiguous rows of `columns` values, in place, with the row
/// maximum subtracted first so that no exponent overflows; eight columns at a time (see
/// `vectorExp`), the sum in eight lanes.
public func softmaxRowsInPlace(_ values: UnsafeMutablePointer<Float>, rows: Int, columns: Int) {
    let vectorColumns = columns / 8 * 8
    for r in 0..<rows {
        let row = values + r * columns
        let raw = UnsafeMutableRawPointer(row)
        var maxima = SIMD8<Float>(repeating: -.infinity)
        for j in stride(from: 0, to: vectorColumns, by: 8) {
            maxima = lanewiseMax(maxima, raw.loadUnaligned(fromByteOffset: j * 4, as: SIMD8<Float>.self))
        }
        var maximum = maxima.max()
        for j in vectorColumns..<columns { maximum = max(maximum, row[j]) }
        let shift = SIMD8<Float>(repeating: maximum)
        var sums = SIMD8<Float>()
        for j in stride(from: 0, to: vectorColumns, by: 8) {
            let e = vectorExp(raw.loadUnaligned(fromByteOffset: j * 4, as: SIMD8<Float>.self) - shift)
            raw.storeBytes(of: e, toByteOffset: j * 4, as: SIMD8<Float>.self)
            sums += e
        }
        var sum = sums.sum()
        for j in vectorColumns..<columns {
            let e = vectorExp(SIMD8(repeating: row[j] - maximum))[0]
            row[j] = e
            sum += e
        }
        let inverse = 1 / sum
        for j in 0..<columns { row[j] *= inverse }
    }
}
