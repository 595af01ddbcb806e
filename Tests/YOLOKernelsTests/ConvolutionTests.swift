import Testing
import YOLOKernels
import YOLOModel

/// The fast convolution (packed GEMM over im2col columns or the input's phases, pointwise GEMM,
/// Winograd, depthwise loop) against the direct reference, over a sweep of kernel, stride, groups
/// and odd sizes, as ncnn's test_convolution does.
@Suite struct ConvolutionTests {
    struct Case: CustomStringConvertible, Sendable {
        let inputChannels, outputChannels, kernelSize, stride, groups, height, width: Int
        var description: String { "c\(inputChannels)→\(outputChannels) k\(kernelSize) s\(stride) g\(groups) \(height)×\(width)" }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        for kernelSize in [1, 3, 5] {
            for stride in [1, 2] {
                for (height, width) in [(1, 1), (7, 5), (13, 16), (2, 9)] {
                    cases.append(Case(inputChannels: 3, outputChannels: 8, kernelSize: kernelSize, stride: stride, groups: 1, height: height, width: width))
                    cases.append(Case(inputChannels: 6, outputChannels: 4, kernelSize: kernelSize, stride: stride, groups: 2, height: height, width: width))
                    cases.append(Case(inputChannels: 5, outputChannels: 5, kernelSize: kernelSize, stride: stride, groups: 5, height: height, width: width))
                }
            }
        }
        cases.append(Case(inputChannels: 64, outputChannels: 32, kernelSize: 3, stride: 2, groups: 1, height: 20, width: 15))
        // The phase-split 3×3 stride-2 path: one output row with its channels split over the threads,
        // odd widths (rows that are not a whole number of vectors: runs of positions), several blocks,
        // and output rows of whole vectors (OW = 64), which go straight into the output.
        cases.append(Case(inputChannels: 16, outputChannels: 32, kernelSize: 3, stride: 2, groups: 1, height: 2, width: 40))
        cases.append(Case(inputChannels: 8, outputChannels: 16, kernelSize: 3, stride: 2, groups: 1, height: 9, width: 71))
        cases.append(Case(inputChannels: 3, outputChannels: 16, kernelSize: 3, stride: 2, groups: 1, height: 64, width: 48))
        cases.append(Case(inputChannels: 4, outputChannels: 16, kernelSize: 3, stride: 2, groups: 1, height: 5, width: 128))
        // OW = 40: rows of whole 8-float vectors but not of whole 16-column tiles (padded phase rows
        // of 48, a last vector of 8 columns), narrow with 16-float vectors.
        cases.append(Case(inputChannels: 8, outputChannels: 16, kernelSize: 3, stride: 2, groups: 1, height: 6, width: 80))
        // Narrow rows as runs of positions: 23 × 37 outputs of 64 channels in four runs or more, which
        // start mid-row, from an input of odd height and width.
        cases.append(Case(inputChannels: 64, outputChannels: 16, kernelSize: 3, stride: 2, groups: 1, height: 45, width: 73))
        // Winograd F(4×4, 3×3): sizes that are not multiples of 4 (partial tiles), one tile, tile
        // rows that end in a partial vector of tiles (width 70: 18 tiles), several blocks.
        for (height, width) in [(1, 1), (2, 2), (5, 7), (16, 16), (33, 9), (80, 6), (37, 70), (6, 130)] {
            cases.append(Case(inputChannels: 8, outputChannels: 12, kernelSize: 3, stride: 1, groups: 1, height: height, width: width))
        }
        cases.append(Case(inputChannels: 64, outputChannels: 64, kernelSize: 3, stride: 1, groups: 1, height: 40, width: 30))
        // Stride 2 from 32 input channels: the corner taps by Winograd F(4×4, 2×2), the other five by the
        // phase split, added to them. Outputs that are not multiples of 4 (partial tiles), one tile,
        // rows whose odd columns (0 to 75 of them) are gathered and split into four phases one by one
        // or sixteen at a time, tile rows ending in a partial vector (75 output columns: 19 tiles),
        // several blocks, and one block of three tile rows (in shares of the channels on two or three
        // threads). The five other taps' split writes only the even columns of even-parity rows: runs
        // of positions, and rows of whole vectors (64 outputs wide: rows with 8- and 16-float vectors).
        for (height, width) in [(1, 1), (3, 5), (8, 8), (17, 30), (24, 150), (90, 40), (41, 33), (24, 64), (9, 128)] {
            cases.append(Case(inputChannels: 32, outputChannels: 16, kernelSize: 3, stride: 2, groups: 1, height: height, width: width))
        }
        // One block of three tile rows: on two or three threads, in shares of the channels (9 inputs:
        // shares of 4 and 5; 20 outputs: three panels, the last partial).
        cases.append(Case(inputChannels: 9, outputChannels: 20, kernelSize: 3, stride: 1, groups: 1, height: 9, width: 19))
        cases.append(Case(inputChannels: 17, outputChannels: 9, kernelSize: 1, stride: 1, groups: 1, height: 11, width: 3))
        // 1×1 over planes of 4 KiB multiples, whose blocks are copied to other row strides first.
        cases.append(Case(inputChannels: 12, outputChannels: 20, kernelSize: 1, stride: 1, groups: 1, height: 32, width: 64))
        // Depthwise at stride 1 over rows of several vectors and a partial one (Detect's DWConv, PSA's pe).
        cases.append(Case(inputChannels: 16, outputChannels: 16, kernelSize: 3, stride: 1, groups: 16, height: 9, width: 27))
        cases.append(Case(inputChannels: 4, outputChannels: 4, kernelSize: 5, stride: 1, groups: 4, height: 12, width: 17))
        // Its flat runs: planes of several 1024-output blocks (one cuts the in-place run), a column (each
        // vector spans 16 rows, both its edge lanes zeroed), and rows too few for an in-place run.
        cases.append(Case(inputChannels: 8, outputChannels: 8, kernelSize: 3, stride: 1, groups: 8, height: 37, width: 33))
        cases.append(Case(inputChannels: 3, outputChannels: 3, kernelSize: 3, stride: 1, groups: 3, height: 20, width: 1))
        cases.append(Case(inputChannels: 3, outputChannels: 3, kernelSize: 3, stride: 1, groups: 3, height: 2, width: 40))
        return cases
    }()

    @Test(arguments: cases, kernelSetsUnderTest)
    func fastMatchesReference(_ c: Case, kernels: KernelSet) {
        guard runs(kernels) else { return }
        let seed = [c.inputChannels, c.outputChannels, c.kernelSize, c.stride, c.groups, c.height, c.width].reduce(0) { $0 &* 31 &+ $1 }
        var generator = SeededGenerator(seed: UInt64(seed))
        let geometry = ConvolutionGeometry(inputChannels: c.inputChannels, outputChannels: c.outputChannels,
                                           kernelSize: c.kernelSize, stride: c.stride, groups: c.groups)
        let input = Tensor.random(shape: [1, c.inputChannels, c.height, c.width], using: &generator)
        let weights = randomValues(c.outputChannels * geometry.filterSize, using: &generator)
        let bias = randomValues(c.outputChannels, using: &generator)
        // Blocks of output positions: the default, one position, and odd sizes that start and end inside rows.
        for (activation, block) in [(Activation.identity, nil), (.silu, nil), (.silu, 1), (.identity, 7), (.silu, 16)] as [(Activation, Int?)] {
            let fast = Convolution(geometry: geometry, weights: weights, bias: bias, activation: activation, positionsPerBlock: block)(input, kernels: kernels)
            let reference = ReferenceKernels.convolution(input, geometry: geometry, weights: weights, bias: bias, activation: activation)
            #expect(fast.shape == reference.shape, "\(c)")
            // fp32 sums of up to filterSize products of values in [-1, 1] against a float64 reference.
            let difference = TensorDifference(actual: fast, expected: reference) { 1e-5 * Float(geometry.filterSize).squareRoot() + 1e-6 * abs($0) }
            #expect(difference.isWithinTolerance, "\(kernels.name) \(c) \(activation) block \(block.map(String.init) ?? "default"): \(difference)")
        }
    }

    /// Stride 2 with Winograd turned off, at channel counts that otherwise run their corner taps by
    /// Winograd: the phase split over all nine taps.
    @Test(arguments: [(64, 32, 20, 15), (32, 16, 45, 73), (32, 8, 12, 128)], kernelSetsUnderTest)
    func phaseSplitOfAllTapsMatchesReference(_ c: (Int, Int, Int, Int), kernels: KernelSet) {
        guard runs(kernels) else { return }
        let (inputs, outputs, height, width) = c
        var generator = SeededGenerator(seed: UInt64(inputs &* 31 &+ outputs &* 7 &+ height &* 3 &+ width))
        let geometry = ConvolutionGeometry(inputChannels: inputs, outputChannels: outputs, kernelSize: 3, stride: 2)
        let input = Tensor.random(shape: [1, inputs, height, width], using: &generator)
        let weights = randomValues(outputs * geometry.filterSize, using: &generator), bias = randomValues(outputs, using: &generator)
        let convolution = Convolution(geometry: geometry, weights: weights, bias: bias, activation: .silu, allowsWinograd: false)
        #expect(convolution.winograd == nil && convolution.phaseSplit?.taps == Array(0..<9))
        let reference = ReferenceKernels.convolution(input, geometry: geometry, weights: weights, bias: bias, activation: .silu)
        let difference = TensorDifference(actual: convolution(input, kernels: kernels), expected: reference) {
            1e-5 * Float(geometry.filterSize).squareRoot() + 1e-6 * abs($0)
        }
        #expect(difference.isWithinTolerance, "\(kernels.name) \(geometry) \(height)×\(width): \(difference)")
    }

    /// Which path a 3×3 convolution takes: Winograd from 8 input channels at stride 1; at stride 2,
    /// from 32, its corner taps, beside the phase split's other five; below that, the phase split's nine.
    @Test func threeByThreePaths() {
        func convolution(_ inputs: Int, stride: Int) -> Convolution {
            let geometry = ConvolutionGeometry(inputChannels: inputs, outputChannels: 8, kernelSize: 3, stride: stride)
            return Convolution(geometry: geometry, weights: [Float](repeating: 0.5, count: 8 * geometry.filterSize),
                               bias: [Float](repeating: 0, count: 8), activation: .silu)
        }
        #expect(convolution(8, stride: 1).winograd?.stride == 1 && convolution(8, stride: 1).phaseSplit == nil)
        #expect(convolution(4, stride: 1).winograd == nil)
        #expect(convolution(32, stride: 2).winograd?.stride == 2 && convolution(32, stride: 2).phaseSplit?.taps == [1, 3, 4, 5, 7])
        #expect(convolution(16, stride: 2).winograd == nil && convolution(16, stride: 2).phaseSplit?.taps == Array(0..<9))
    }

    /// A 1×1 convolution of parts equals the convolution of their concatenation.
    @Test(arguments: [[3, 5], [8, 8, 8, 8], [1, 16, 2]], kernelSetsUnderTest)
    func pointwiseOverPartsEqualsConcatenation(channels: [Int], kernels: KernelSet) {
        guard runs(kernels) else { return }
        var generator = SeededGenerator(seed: UInt64(channels.reduce(7) { $0 &* 31 &+ $1 }))
        // 9 × 13, and 32 × 32: planes of 4 KiB, whose blocks are copied row by row before the product.
        for (height, width) in [(9, 13), (32, 32)] {
            let parts = channels.map { Tensor.random(shape: [1, $0, height, width], using: &generator) }
            let geometry = ConvolutionGeometry(inputChannels: channels.reduce(0, +), outputChannels: 12, kernelSize: 1)
            let weights = randomValues(12 * geometry.filterSize, using: &generator), bias = randomValues(12, using: &generator)
            for block in [nil, 5] as [Int?] {
                let convolution = Convolution(geometry: geometry, weights: weights, bias: bias, activation: .silu, positionsPerBlock: block)
                let fused = convolution(FeatureMap(concatenating: parts), kernels: kernels)
                let reference = ReferenceKernels.convolution(Tensor.concatenatingChannels(parts), geometry: geometry, weights: weights, bias: bias, activation: .silu)
                let difference = TensorDifference(actual: fused, expected: reference) { 1e-5 * Float(geometry.filterSize).squareRoot() + 1e-6 * abs($0) }
                #expect(difference.isWithinTolerance, "parts \(channels) \(height)×\(width) block \(block.map(String.init) ?? "default"): \(difference)")
            }
        }
    }

    /// A convolution with a residual added in its epilogue equals the convolution, then the sum,
    /// bit for bit: on the Winograd path (block by block, tile rows ending inside a vector), and on
    /// the others (one pass after the convolution).
    @Test(arguments: [(8, 8, 3, 1, 1, 37, 70), (16, 16, 3, 1, 1, 20, 20), (12, 12, 1, 1, 1, 9, 13), (6, 6, 3, 2, 1, 14, 22), (5, 5, 3, 1, 5, 9, 27)], kernelSetsUnderTest)
    func residualInTheEpilogueEqualsTheSumAfter(_ c: (Int, Int, Int, Int, Int, Int, Int), kernels: KernelSet) {
        guard runs(kernels) else { return }
        let (inputs, outputs, kernelSize, stride, groups, height, width) = c
        var generator = SeededGenerator(seed: UInt64(inputs &* 31 &+ kernelSize &* 7 &+ height &* 3 &+ width))
        let geometry = ConvolutionGeometry(inputChannels: inputs, outputChannels: outputs, kernelSize: kernelSize, stride: stride, groups: groups)
        let input = Tensor.random(shape: [1, inputs, height, width], using: &generator)
        let residual = Tensor.random(shape: [1, outputs, geometry.outputSize(height), geometry.outputSize(width)], using: &generator)
        let weights = randomValues(outputs * geometry.filterSize, using: &generator), bias = randomValues(outputs, using: &generator)
        for activation in [Activation.identity, .silu] {
            let convolution = Convolution(geometry: geometry, weights: weights, bias: bias, activation: activation)
            let fused = convolution(input, adding: residual, kernels: kernels)
            let separate = convolution(input, kernels: kernels).adding(residual, kernels: kernels)
            #expect(fused.shape == separate.shape)
            let differing = (0..<fused.count).count { fused.data[$0].bitPattern != separate.data[$0].bitPattern }
            #expect(differing == 0, "\(geometry) \(activation): \(differing) of \(fused.count) results differ")
        }
    }

    /// Parts of a feature map (channels, upsampling factor), for the 1×1 convolution over them.
    static let upsampledLayouts: [[[Int]]] = [
        [[4, 2], [5, 1]],          // upsampled parts first: multiplied small, the rest accumulated
        [[6, 1], [3, 2], [2, 2]],  // last, two of them
        [[7, 2]],                  // only upsampled: the whole convolution small
        [[3, 2], [4, 1], [2, 2]],  // at both ends: written out first
        [[2, 4], [3, 2], [1, 1]],  // two factors: written out first
    ]

    /// A 1×1 convolution of a map with upsampled parts equals the convolution of the map written out.
    @Test(arguments: upsampledLayouts, kernelSetsUnderTest)
    func pointwiseOverUpsampledPartsEqualsConvolutionOfTheMapWrittenOut(layout: [[Int]], kernels: KernelSet) {
        guard runs(kernels) else { return }
        let layoutHash: Int = layout.joined().reduce(3) { hash, part in hash &* 31 &+ part }
        var generator = SeededGenerator(seed: UInt64(layoutHash))
        let (height, width) = (8, 12)
        let map = FeatureMap(concatenating: layout.map { part in
            FeatureMap(Tensor.random(shape: [1, part[0], height / part[1], width / part[1]], using: &generator)).upsampled(factor: part[1])
        })
        let geometry = ConvolutionGeometry(inputChannels: map.channels, outputChannels: 11, kernelSize: 1)
        let weights = randomValues(11 * geometry.filterSize, using: &generator), bias = randomValues(11, using: &generator)
        let reference = ReferenceKernels.convolution(map.tensor, geometry: geometry, weights: weights, bias: bias, activation: .silu)
        for block in [nil, 5] as [Int?] {
            let convolution = Convolution(geometry: geometry, weights: weights, bias: bias, activation: .silu, positionsPerBlock: block)
            let fused = convolution(map, kernels: kernels)
            #expect(fused.shape == reference.shape)
            let difference = TensorDifference(actual: fused, expected: reference) { 1e-5 * Float(geometry.filterSize).squareRoot() + 1e-6 * abs($0) }
            #expect(difference.isWithinTolerance, "layout \(layout) block \(block.map(String.init) ?? "default"): \(difference)")
        }
    }

    @Test func outputSizeFollowsPyTorch() {
        let geometry = ConvolutionGeometry(inputChannels: 1, outputChannels: 1, kernelSize: 3, stride: 2)
        #expect(geometry.padding == 1)
        #expect(geometry.outputSize(640) == 320)
        #expect(geometry.outputSize(7) == 4)
        #expect(ConvolutionGeometry(inputChannels: 1, outputChannels: 1, kernelSize: 1).outputSize(7) == 7)
    }
}
