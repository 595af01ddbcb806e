import YOLOKernels
import YOLOTensor

/// Applies `activation` in place to `count` values.
func applyActivation(_ activation: Activation, to values: UnsafeMutablePointer<Float>, count: Int) {
    switch activation {
    case .identity: return
    case .silu: siluInPlace(values, count: count)
    }
}

/// `x ← act(x + bias)`, or `act(x + bias) + residual` given `residual` (`count` floats: a shortcut
/// connection added in the same pass), in place over `count` floats: the epilogue of a convolution
/// (one pass over its output, vectorized; see `vectorExp`).
func addBiasAndActivate(_ values: UnsafeMutablePointer<Float>, count: Int, bias: Float, activation: Activation,
                               adding residual: UnsafePointer<Float>? = nil) {
    switch (activation, residual) {
    case (.identity, nil): addBias(values, count: count, bias: bias) { $0 }
    case (.silu, nil): addBias(values, count: count, bias: bias) { vectorSiLU($0) }
    case let (.identity, residual?): addBias(values, count: count, bias: bias, adding: residual) { $0 }
    case let (.silu, residual?): addBias(values, count: count, bias: bias, adding: residual) { vectorSiLU($0) }
    }
}

/// The loop of `addBiasAndActivate` for one activation function, `activate`; each case inlines its
/// own copy. The tail goes through the same vector arithmetic, padded.
@inline(__always)
private func addBias(_ values: UnsafeMutablePointer<Float>, count: Int, bias: Float, adding residual: UnsafePointer<Float>? = nil,
                     _ activate: (FloatVector) -> FloatVector) {
    let raw = UnsafeMutableRawPointer(values)
    let b = FloatVector(repeating: bias)
    let lanes = FloatVector.scalarCount
    @inline(__always) func result(_ x: FloatVector, _ offset: Int) -> FloatVector {
        guard let residual else { return activate(x + b) }
        return activate(x + b) + UnsafeRawPointer(residual).loadUnaligned(fromByteOffset: offset * 4, as: FloatVector.self)
    }
    var i = 0
    while i + lanes <= count {
        raw.storeBytes(of: result(raw.loadUnaligned(fromByteOffset: i * 4, as: FloatVector.self), i), toByteOffset: i * 4, as: FloatVector.self)
        i += lanes
    }
    guard i < count else { return }
    var tail = FloatVector()
    for j in 0..<(count - i) { tail[j] = values[i + j] }
    tail = activate(tail + b)
    if let residual { for j in 0..<(count - i) { tail[j] += residual[i + j] } }
    for j in 0..<(count - i) { values[i + j] = tail[j] }
}

/// `x ← x / (1 + e^(−x))`, in place.
func siluInPlace(_ values: UnsafeMutablePointer<Float>, count: Int) {
    addBiasAndActivate(values, count: count, bias: 0, activation: .silu)
}

/// The logistic function `1 / (1 + e^(−x))` of one value, through the same arithmetic as the
/// vector paths.
func sigmoid(_ x: Float) -> Float { vectorSigmoid(FloatVector(repeating: x))[0] }

/// `destination[i] = 1 / (1 + e^(−source[i]))` for `count` values, vectorized; `destination` may be
/// `source` (in place), or must not overlap it.
func sigmoid(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<Float>) {
    let (input, output) = (UnsafeRawPointer(source), UnsafeMutableRawPointer(destination))
    var i = 0
    while i + FloatVector.scalarCount <= count {
        output.storeBytes(of: vectorSigmoid(input.loadUnaligned(fromByteOffset: i * 4, as: FloatVector.self)), toByteOffset: i * 4, as: FloatVector.self)
        i += FloatVector.scalarCount
    }
    for j in i..<count { destination[j] = sigmoid(source[j]) }
}

/// The softmax of each column of a row-major `rows × columns` matrix, in place: the values less
/// their column's maximum, through `vectorExp`, then times the reciprocal of the column's sum.
/// (Attention's weights: each query's column of scores over the keys.) A vector of columns walks
/// down the rows three times (maximum, exponentials and sum, scaling), its lines staying in the
/// first-level cache between the walks, so every column is summed in row order; the columns past
/// the last whole vector take the same steps one at a time. (Walks along whole rows, with the maxima
/// and sums in rows of their own, were slower: docs/performance.md.)
func softmaxColumnsInPlace(_ values: UnsafeMutablePointer<Float>, rows: Int, columns: Int) {
    let lanes = FloatVector.scalarCount
    let vectorColumns = columns / lanes * lanes
    let raw = UnsafeMutableRawPointer(values)
    for column in stride(from: 0, to: vectorColumns, by: lanes) {
        func offset(_ row: Int) -> Int { (row * columns + column) * MemoryLayout<Float>.stride }
        var maxima = FloatVector(repeating: -.infinity)
        for row in 0..<rows {
            maxima = lanewiseMax(maxima, raw.loadUnaligned(fromByteOffset: offset(row), as: FloatVector.self))
        }
        var sums = FloatVector()
        for row in 0..<rows {
            let e = vectorExp(raw.loadUnaligned(fromByteOffset: offset(row), as: FloatVector.self) - maxima)
            raw.storeBytes(of: e, toByteOffset: offset(row), as: FloatVector.self)
            sums += e
        }
        let inverses = 1 / sums
        for row in 0..<rows {
            raw.storeBytes(of: raw.loadUnaligned(fromByteOffset: offset(row), as: FloatVector.self) * inverses,
                           toByteOffset: offset(row), as: FloatVector.self)
        }
    }
    for column in vectorColumns..<columns {
        var maximum = -Float.infinity
        for row in 0..<rows { maximum = max(maximum, values[row * columns + column]) }
        var sum: Float = 0
        for row in 0..<rows {
            let e = vectorExp(FloatVector(repeating: values[row * columns + column] - maximum))[0]
            values[row * columns + column] = e
            sum += e
        }
        let inverse = 1 / sum
        for row in 0..<rows { values[row * columns + column] *= inverse }
    }
}

/// `destination[i] = e^source[i]` for `count` values by `vectorExp` (the padding of the last vector
/// is computed and dropped), for tests of the exponential in every kernel set.
func exponentials(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<Float>) {
    let lanes = FloatVector.scalarCount
    var i = 0
    while i < count {
        var x = FloatVector()
        for lane in 0..<min(lanes, count - i) { x[lane] = source[i + lane] }
        let e = vectorExp(x)
        for lane in 0..<min(lanes, count - i) { destination[i + lane] = e[lane] }
        i += lanes
    }
}
