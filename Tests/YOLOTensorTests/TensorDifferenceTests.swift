import Testing
import YOLOTensor

/// How far two tensors are apart: the largest error and where it is, the error on the expected
/// tensor's scale, and the first element past a bound, with infinities and NaNs among the values.
@Suite struct TensorDifferenceTests {
    static func difference(_ actual: [Float], _ expected: [Float], tolerance: Float) -> TensorDifference {
        actual.withUnsafeBufferPointer { a in
            expected.withUnsafeBufferPointer { e in TensorDifference(actual: a, expected: e) { _ in tolerance } }
        }
    }

    @Test func theLargestErrorAndTheFirstPastTheBound() {
        let difference = Self.difference([1, 2.5, 3, 4.1], [1, 2, 3, 3], tolerance: 0.2)
        #expect(difference.maxAbsolute == Float(4.1) - 3 && difference.maxAbsoluteIndex == 3)
        #expect(difference.relativeToScale == (Float(4.1) - 3) / 3)
        #expect(difference.firstBadIndex == 1 && !difference.isWithinTolerance)
    }

    /// An infinity matches only itself; the scale is the finite values', so the relative error is a
    /// number, never NaN.
    @Test func anInfinityMatchesOnlyItself() {
        let same = Self.difference([2, .infinity, -.infinity], [2, .infinity, -.infinity], tolerance: 0)
        #expect(same.maxAbsolute == 0 && same.relativeToScale == 0 && same.isWithinTolerance)
        let finite = Self.difference([2, 1e30], [2, .infinity], tolerance: 1)
        #expect(finite.maxAbsolute == .infinity && finite.maxAbsoluteIndex == 1 && finite.firstBadIndex == 1)
        #expect(finite.relativeToScale == .infinity)
        let opposite = Self.difference([4, -.infinity], [4, .infinity], tolerance: 1)
        #expect(opposite.maxAbsolute == .infinity && opposite.relativeToScale == .infinity && opposite.firstBadIndex == 1)
    }

    @Test func aNaNIsTheWorstErrorOnEitherSide() {
        for (actual, expected) in [([Float(1), .nan], [Float(1), 2]), ([1, 2], [1, .nan]), ([1, .nan], [1, .nan])] {
            let difference = Self.difference(actual, expected, tolerance: .infinity)
            #expect(difference.maxAbsolute == .infinity && difference.maxAbsoluteIndex == 1, "\(actual) against \(expected)")
            #expect(difference.firstBadIndex == 1 && !difference.relativeToScale.isNaN, "\(actual) against \(expected)")
        }
    }

    /// The relative bound is on the finite expected values' scale: an infinite expected value does
    /// not widen it to everything.
    @Test func theRelativeBoundIgnoresInfinities() {
        let expected = Tensor(shape: [1, 3], values: [10, .infinity, -5])
        let close = Tensor(shape: [1, 3], values: [10.0005, .infinity, -5])
        let far = Tensor(shape: [1, 3], values: [10, .infinity, -4])
        #expect(TensorDifference(actual: close, expected: expected, relativeTolerance: 1e-4).isWithinTolerance)
        let difference = TensorDifference(actual: far, expected: expected, relativeTolerance: 1e-4)
        #expect(difference.firstBadIndex == 2 && difference.relativeToScale == 0.1)
    }
}
