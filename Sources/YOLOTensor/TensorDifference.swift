/// How far a computed tensor is from a reference one: the largest absolute error, the largest error
/// relative to the reference's own magnitude, and the first element past a tolerance.
package struct TensorDifference: Sendable, CustomStringConvertible {
    package let count: Int
    /// `max |actual − expected|`.
    package let maxAbsolute: Float
    /// Where `maxAbsolute` occurs.
    package let maxAbsoluteIndex: Int
    /// `maxAbsolute / max |expected|` over the finite expected values: the error on the scale of the tensor.
    package let relativeToScale: Float
    /// The first index where `|actual − expected| > tolerance(expected)`, if any.
    package let firstBadIndex: Int?

    /// Compares two tensors of the same shape element by element.
    ///
    /// - Parameter tolerance: the largest acceptable absolute error for an expected value.
    package init(actual: Tensor, expected: Tensor, tolerance: (Float) -> Float = { _ in .infinity }) {
        precondition(actual.shape == expected.shape, "comparing \(actual.shape) with \(expected.shape)")
        self.init(actual: UnsafeBufferPointer(actual.buffer), expected: UnsafeBufferPointer(expected.buffer), tolerance: tolerance)
    }

    package init(actual: UnsafeBufferPointer<Float>, expected: UnsafeBufferPointer<Float>, tolerance: (Float) -> Float = { _ in .infinity }) {
        precondition(actual.count == expected.count)
        var maxAbsolute: Float = 0, maxAbsoluteIndex = 0, scale: Float = 0
        var firstBad: Int?
        for i in 0..<actual.count {
            // An infinity matches only itself (∞ − ∞ would be NaN); a NaN anywhere is the worst error there is.
            let error = actual[i] == expected[i] ? 0 : abs(actual[i] - expected[i])
            if error.isNaN || error > maxAbsolute {
                maxAbsolute = error.isNaN ? .infinity : error
                maxAbsoluteIndex = i
            }
            if expected[i].isFinite { scale = max(scale, abs(expected[i])) }
            if firstBad == nil, !(error <= tolerance(expected[i])) { firstBad = i }
        }
        self.count = actual.count
        self.maxAbsolute = maxAbsolute
        self.maxAbsoluteIndex = maxAbsoluteIndex
        self.relativeToScale = scale > 0 ? maxAbsolute / scale : maxAbsolute
        self.firstBadIndex = firstBad
    }

    /// `max |expected|` over the finite values: an infinity or NaN has no scale to measure against.
    private static func finiteScale(_ expected: UnsafeBufferPointer<Float>) -> Float {
        expected.reduce(Float(0)) { $1.isFinite ? max($0, abs($1)) : $0 }
    }

    /// Compares two tensors of the same shape against a bound on the scale of `expected`: an element
    /// is bad where its error passes `relativeTolerance · max |expected|` (over the finite expected
    /// values; `relativeTolerance` where every one is 0), so that `isWithinTolerance` says
    /// `relativeToScale ≤ relativeTolerance` and `firstBadIndex` says where it first fails. A
    /// non-finite expected value must be met exactly.
    package init(actual: Tensor, expected: Tensor, relativeTolerance: Float) {
        let scale = Self.finiteScale(UnsafeBufferPointer(expected.buffer))
        let bound = scale > 0 ? relativeTolerance * scale : relativeTolerance
        self.init(actual: actual, expected: expected) { _ in bound }
    }

    package var isWithinTolerance: Bool { firstBadIndex == nil }

    package var description: String {
        "max-abs \(maxAbsolute) at \(maxAbsoluteIndex), relative \(relativeToScale)"
            + (firstBadIndex.map { ", first bad index \($0)" } ?? "")
    }
}
