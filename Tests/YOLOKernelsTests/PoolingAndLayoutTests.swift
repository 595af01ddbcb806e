import Foundation
import Testing
import YOLOKernels
import YOLOModel

@Suite struct PoolingAndLayoutTests {
    /// The vectorized same-size path (stride 1, 2p = k − 1: SPPF's 20 × 20 among them; planes
    /// narrower than a vector, a window wider than the plane, a last vector partly past the plane)
    /// and the window-by-window path for the other geometries.
    @Test(arguments: [(5, 1, 2, 7, 9), (5, 1, 2, 20, 20), (3, 1, 1, 5, 17), (7, 1, 3, 3, 2), (5, 1, 2, 4, 16),
                      (5, 1, 2, 1, 1), (3, 2, 1, 8, 5), (2, 2, 0, 6, 6), (3, 1, 0, 6, 7)], kernelSetsUnderTest)
    func maxPoolMatchesReference(_ c: (kernelSize: Int, stride: Int, padding: Int, height: Int, width: Int), kernels: KernelSet) {
        guard runs(kernels) else { return }
        let (kernelSize, stride, padding, height, width) = c
        var generator = SeededGenerator(seed: UInt64(kernelSize * 1000 + height * 10 + width))
        let input = Tensor.random(shape: [1, 4, height, width], using: &generator)
        let fast = input.maxPooled(kernelSize: kernelSize, stride: stride, padding: padding, kernels: kernels)
        let reference = ReferenceKernels.maxPool(input, kernelSize: kernelSize, stride: stride, padding: padding)
        #expect(fast.shape == reference.shape)
        #expect(fast.values == reference.values, "\(kernels.name): pooling is exact: k\(kernelSize) s\(stride) p\(padding) \(height)×\(width)")
    }

    /// Ties and NaN as the reference takes them, element by element in row-major order: of −0 and
    /// +0 the later one, bit for bit, and a NaN never in place of a number.
    @Test(arguments: kernelSetsUnderTest)
    func maxPoolKeepsTheReferencesTiesAndIgnoresNaN(kernels: KernelSet) {
        guard runs(kernels) else { return }
        let (height, width) = (6, 9)
        var values = [Float](repeating: -1, count: 2 * height * width)
        for i in stride(from: 0, to: values.count, by: 3) { values[i] = -0.0 }
        for i in stride(from: 1, to: values.count, by: 5) { values[i] = 0.0 }
        for i in stride(from: 2, to: values.count, by: 7) { values[i] = .nan }
        let input = Tensor(shape: [1, 2, height, width], values: values)
        let fast = input.maxPooled(kernelSize: 5, padding: 2, kernels: kernels)
        let reference = ReferenceKernels.maxPool(input, kernelSize: 5, stride: 1, padding: 2)
        #expect(fast.values.map(\.bitPattern) == reference.values.map(\.bitPattern))
        #expect(reference.values.contains { $0 == 0 && $0.sign == .minus } && reference.values.contains { $0 == 0 && $0.sign == .plus })
    }

    /// Against the definition, at widths with and without whole vectors and a tail.
    @Test(arguments: [(1, 3), (2, 3), (2, 8), (2, 19), (3, 5), (2, 33)], kernelSetsUnderTest)
    func upsampleNearestCopiesEachPixelIntoABlock(_ c: (factor: Int, width: Int), kernels: KernelSet) {
        guard runs(kernels) else { return }
        let (factor, width) = c
        var generator = SeededGenerator(seed: UInt64(factor * 100 + width))
        let input = Tensor.random(shape: [1, 3, 4, width], using: &generator)
        let output = Tensor(shape: [1, 3, 4 * factor, width * factor])
        kernels.upsampleNearest(input.data, channels: 3, height: 4, width: width, factor: factor, into: output.data)
        var mismatches = 0
        for c in 0..<3 {
            for y in 0..<(4 * factor) {
                for x in 0..<(width * factor) where output.data[(c * 4 * factor + y) * width * factor + x] != input.data[(c * 4 + y / factor) * width + x / factor] {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0, "\(kernels.name): factor \(factor), width \(width)")
    }

    /// A map of upsampled and plain parts, written out, is the parts upsampled and concatenated.
    @Test func featureMapWritesOutItsPartsUpsampledAndConcatenated() {
        var generator = SeededGenerator(seed: 5)
        let small = Tensor.random(shape: [1, 3, 3, 5], using: &generator)
        let large = Tensor.random(shape: [1, 2, 6, 10], using: &generator)
        let map = FeatureMap(concatenating: [FeatureMap(small).upsampled(factor: 2), FeatureMap(large)])
        #expect((map.channels, map.height, map.width) == (5, 6, 10))
        #expect(map.parts.map(\.upsampling) == [2, 1])
        let written = map.tensor
        #expect(written.shape == [1, 5, 6, 10])
        #expect(written.channels(0..<3).values == small.upsampledNearest(factor: 2).values)
        #expect(written.channels(3..<5).values == large.values)
        // One tensor as it is is the tensor itself, not a copy.
        #expect(FeatureMap(large).tensor === large)
    }

    @Test func concatAndChannelSlicesRoundTrip() {
        var generator = SeededGenerator(seed: 3)
        let a = Tensor.random(shape: [1, 3, 4, 5], using: &generator)
        let b = Tensor.random(shape: [1, 2, 4, 5], using: &generator)
        let joined = Tensor.concatenatingChannels([a, b])
        #expect(joined.shape == [1, 5, 4, 5])
        #expect(joined.channels(0..<3).values == a.values)
        #expect(joined.channels(3..<5).values == b.values)
    }

    @Test(arguments: kernelSetsUnderTest)
    func softmaxColumnsSumToOneAndKeepOrder(kernels: KernelSet) {
        guard runs(kernels) else { return }
        // Two columns, [1, 2, 3] and [1000, 1000, −1000], down three rows.
        var values: [Float] = [1, 1000, 2, 1000, 3, -1000]
        values.withUnsafeMutableBufferPointer { kernels.softmaxColumnsInPlace($0.baseAddress!, rows: 3, columns: 2) }
        #expect(abs(values[0] + values[2] + values[4] - 1) < 1e-6)
        #expect(values[0] < values[2] && values[2] < values[4])
        #expect(abs(values[4] - 0.66524096) < 1e-6)
        #expect(abs(values[1] - 0.5) < 1e-6 && abs(values[3] - 0.5) < 1e-6 && values[5] == 0)
    }

    /// Column counts on both sides of every kernel set's vector width (the last columns take the
    /// one-at-a-time path), and attention's 400 × 400 at YOLO11n's 20 × 20 map.
    @Test(arguments: [(5, 1), (5, 7), (5, 8), (3, 37), (9, 400), (400, 400)], kernelSetsUnderTest)
    func softmaxMatchesTheDefinitionInDoublePrecision(shape: (rows: Int, columns: Int), kernels: KernelSet) {
        guard runs(kernels) else { return }
        let (rows, columns) = shape
        var generator = SeededGenerator(seed: UInt64(rows * 1000 + columns))
        let input = randomValues(rows * columns, in: -40...40, using: &generator)
        var values = input
        values.withUnsafeMutableBufferPointer { kernels.softmaxColumnsInPlace($0.baseAddress!, rows: rows, columns: columns) }
        for column in 0..<columns {
            // The differences to the column maximum as the kernel forms them, in Float (their
            // rounding is the input's, ~2^-18 relative at |x − max| ≈ 80); all the rest in Double.
            let entries = (0..<rows).map { input[$0 * columns + column] }
            let maximum = entries.max()!
            let differences = entries.map { Double($0 - maximum) }
            let sum = differences.reduce(0) { $0 + exp($1) }
            for (row, difference) in differences.enumerated() {
                let expected = exp(difference) / sum
                #expect(abs(Double(values[row * columns + column]) - expected) <= 1e-6 * max(expected, 1e-30),
                        "\(kernels.name): row \(row) column \(column) of \(rows) × \(columns)")
            }
        }
    }

    @Test(arguments: kernelSetsUnderTest)
    func siluAndSigmoidMatchTheirDefinitions(kernels: KernelSet) {
        guard runs(kernels) else { return }
        var values: [Float] = [-20, -1, 0, 0.5, 3, 20]
        let expected = values.map { Double($0) / (1 + exp(-Double($0))) }
        values.withUnsafeMutableBufferPointer { kernels.addBiasAndActivate($0.baseAddress!, count: $0.count, bias: 0, activation: .silu) }
        for (value, reference) in zip(values, expected) { #expect(abs(Double(value) - reference) <= 1e-6 * max(1, abs(reference))) }
        var sigmoids: [Float] = [0, 2]
        sigmoids.withUnsafeMutableBufferPointer { kernels.sigmoid($0.baseAddress!, count: 2, into: $0.baseAddress!) }
        #expect(sigmoids[0] == 0.5)
        #expect(abs(sigmoids[1] - 0.880797) < 1e-6)
    }
}

