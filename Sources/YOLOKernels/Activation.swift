import Foundation

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

/// `x ← x / (1 + e^(−x))`, in place.
@inlinable
public func siluInPlace(_ values: UnsafeMutablePointer<Float>, count: Int) {
    for i in 0..<count {
        let x = values[i]
        values[i] = x / (1 + expf(-x))
    }
}

/// The logistic function `1 / (1 + e^(−x))`.
@inlinable
public func sigmoid(_ x: Float) -> Float { 1 / (1 + expf(-x)) }

/// `x ← 1 / (1 + e^(−x))`, in place.
@inlinable
public func sigmoidInPlace(_ values: UnsafeMutablePointer<Float>, count: Int) {
    for i in 0..<count { values[i] = sigmoid(values[i]) }
}

/// Softmax over each of `rows` contiguous rows of `columns` values, in place, with the row
/// maximum subtracted first so that no exponent overflows.
public func softmaxRowsInPlace(_ values: UnsafeMutablePointer<Float>, rows: Int, columns: Int) {
    for r in 0..<rows {
        let row = values + r * columns
        var maximum = -Float.infinity
        for j in 0..<columns { maximum = max(maximum, row[j]) }
        var sum: Float = 0
        for j in 0..<columns {
            let e = expf(row[j] - maximum)
            row[j] = e
            sum += e
        }
        let inverse = 1 / sum
        for j in 0..<columns { row[j] *= inverse }
    }
}
