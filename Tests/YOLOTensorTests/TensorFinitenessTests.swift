import Testing
import YOLOTensor

/// `Tensor.firstNonFiniteIndex()`: the first NaN or infinity wherever it lies, in the sixteen-wide
/// chunks and in the tail after them, and none in a finite tensor.
@Suite struct TensorFinitenessTests {
    @Test func findsTheFirstNonFiniteElementInEveryPosition() {
        for count in [0, 1, 15, 16, 17, 40] {
            let finite = (0..<count).map { Float($0) - 20 }
            #expect(Tensor(shape: [count], values: finite).firstNonFiniteIndex() == nil)
            for index in 0..<count {
                for value in [Float.infinity, -.infinity, .nan, .signalingNaN] {
                    var values = finite
                    values[index] = value
                    if index + 1 < count { values[count - 1] = .nan }
                    #expect(Tensor(shape: [count], values: values).firstNonFiniteIndex() == index, "\(count) \(index) \(value)")
                }
            }
        }
        // The largest finite values and the smallest subnormals are finite.
        #expect(Tensor(shape: [18], values: [Float](repeating: .greatestFiniteMagnitude, count: 9)
                       + [Float](repeating: -.leastNonzeroMagnitude, count: 9)).firstNonFiniteIndex() == nil)
    }
}
