import YOLOKernels
import YOLOTensor

/// The compute of `Convolution` in this kernel set: the paths (Winograd, phase split, depthwise,
/// 1×1 GEMM, im2col + GEMM) over blocks of output positions.
extension Convolution {
    /// `x` written out, convolved into a new tensor (the general path of `convolveParts`).
    private func convolveWhole(_ input: Tensor) -> Tensor {
        let (_, height, width) = input.chw
        let output = Tensor.featureMap(channels: geometry.outputChannels, height: geometry.outputSize(height),
                                       width: geometry.outputSize(width), zeroed: false)
        run(input.data, height: height, width: width, into: output.data)
        return output
    }

    /// Convolves a feature map whose parts may not be written out (`FeatureMap`), as `self(x.tensor)`
    /// would. A 1×1 convolution reads the parts where they lie — it is a sum of products, one per
    /// part, each with its own columns of the filters — and multiplies upsampled parts at their own
    /// size: upsampling commutes with it, `W · up(a) = up(W · a)`. So when the upsampled parts come
    /// first or last, all by one factor, their product is computed small, upsampled into the output,
    /// and the other parts' product is added to it with the bias before the activation; a quarter of
    /// their arithmetic at factor 2, and no upsampled copy of them. Other kernels, and other mixes of
    /// parts, convolve `x.tensor`.
    func convolveParts(_ x: FeatureMap) -> Tensor {
        let g = geometry
        guard g.kernelSize == 1, g.stride == 1, g.padding == 0, g.groups == 1, x.parts.count > 1 || x.parts[0].upsampling > 1
        else { return convolveWhole(x.tensor) }
        precondition(x.channels == g.inputChannels, "convolution \(g) got \(x.channels) input channels")
        let output = Tensor.featureMap(channels: g.outputChannels, height: x.height, width: x.width, zeroed: false)
        func pieces(_ parts: ArraySlice<FeatureMap.Part>) -> [(UnsafePointer<Float>, Int)] { parts.map { (UnsafePointer($0.tensor.data), $0.channels) } }
        let factor = x.parts.map(\.upsampling).max()!
        guard factor > 1 else {
            pointwiseConvolution(packedFilters[0], pieces(x.parts[...]), planeSize: x.height * x.width, into: output.data)
            return output
        }
        // The small parts (upsampled by `factor`) must be a run at the start or the end, the others as they are.
        let smallCount = x.parts.count { $0.upsampling == factor }
        let smallFirst = x.parts.prefix(smallCount).allSatisfy { $0.upsampling == factor }
        guard x.parts.allSatisfy({ $0.upsampling == factor || $0.upsampling == 1 })
              && (smallFirst || x.parts.suffix(smallCount).allSatisfy { $0.upsampling == factor })
        else { return convolveWhole(x.tensor) }
        let (small, large) = smallFirst ? (x.parts.prefix(smallCount), x.parts.dropFirst(smallCount))
                                        : (x.parts.suffix(smallCount), x.parts.dropLast(smallCount))
        let (smallHeight, smallWidth) = (x.height / factor, x.width / factor)
        let product = Tensor.featureMap(channels: g.outputChannels, height: smallHeight, width: smallWidth, zeroed: false)
        guard !large.isEmpty else {
            // Only upsampled parts: the whole convolution small, then upsampled (the same values).
            pointwiseConvolution(packedFilters[0], pieces(small), planeSize: smallHeight * smallWidth, into: product.data)
            upsampleNearest(product.data, channels: g.outputChannels, height: smallHeight, width: smallWidth, factor: factor, into: output.data)
            return output
        }
        let smallChannels = small.reduce(0) { $0 + $1.channels }, largeChannels = g.inputChannels - smallChannels
        let (smallColumns, largeColumns) = smallFirst ? (0..<smallChannels, smallChannels..<g.inputChannels)
                                                      : (largeChannels..<g.inputChannels, 0..<largeChannels)
        pointwiseConvolution(packedFilters[0].columns(smallColumns), pieces(small), planeSize: smallHeight * smallWidth,
                             epilogue: GEMMEpilogue.none, into: product.data)
        upsampleNearest(product.data, channels: g.outputChannels, height: smallHeight, width: smallWidth, factor: factor, into: output.data)
        bias.withUnsafeBufferPointer { bias in
            pointwiseConvolution(packedFilters[0].columns(largeColumns), pieces(large), planeSize: x.height * x.width,
                                 epilogue: .accumulateBiasActivation(bias: bias.baseAddress!, activation: activation), into: output.data)
        }
        return output
    }

    /// Convolves `C_in` planes of `height × width` into `C_out` planes at `output` (every output
    /// element is written), adding `residual` (as many floats as the output) to the result if given.
    func run(_ input: UnsafePointer<Float>, height: Int, width: Int, adding residual: UnsafePointer<Float>? = nil,
             into output: UnsafeMutablePointer<Float>) {
        let g = geometry
        if let residual, winograd == nil {
            run(input, height: height, width: width, into: output)
            addElementwise(output, residual, count: g.outputChannels * g.outputSize(height) * g.outputSize(width), into: output)
            return
        }
        bias.withUnsafeBufferPointer { bias in
            guard let bias = bias.baseAddress else { return }
            if let winograd {
                winograd.run(input, height: height, width: width, bias: bias, activation: activation, adding: residual, into: output)
            } else if let phaseSplit {
                phaseSplit.run(input, height: height, width: width, bias: bias, activation: activation, into: output)
            } else if g.isDepthwise {
                depthwiseFilters.withUnsafeBufferPointer { weights in
                    depthwiseConvolution(
                        input, channels: g.inputChannels, height: height, width: width, weights: weights.baseAddress!,
                        kernelSize: g.kernelSize, stride: g.stride, padding: g.padding, bias: bias, activation: activation,
                        into: output)
                }
            } else if g.kernelSize == 1 && g.stride == 1 && g.padding == 0 && g.groups == 1 {
                pointwiseConvolution(packedFilters[0], [(input, g.inputChannels)], planeSize: height * width, into: output)
            } else {
                blockedGEMMConvolution(input, height: height, width: width, bias: bias, into: output)
            }
        }
    }

    /// Positions per block on the GEMM paths: `positionsPerBlock`, or about as many as keep `depth`
    /// rows of a block near 256 KiB — evened out over the blocks that makes, a whole number of the
    /// GEMM's column tiles each.
    private func blockSize(depth: Int, planeSize: Int) -> Int {
        if let positionsPerBlock { return max(1, min(planeSize, positionsPerBlock)) }
        let tile = 2 * FloatVector.scalarCount
        let preferred = max(256, (64 << 10) / max(depth, 1) / tile * tile)
        let blocks = (planeSize + preferred - 1) / preferred
        return max(1, min(planeSize, ((planeSize + blocks - 1) / blocks + tile - 1) / tile * tile))
    }

    /// `output = epilogue(W · [part₀; part₁; …])` for a 1×1 convolution with filters `filters` (by
    /// default `act(W · … + b)`), block by block over the positions: one GEMM per block reads the parts
    /// in place, one after another along its depth, and applies the epilogue before it stores. Where
    /// the planes are a multiple of 4 KiB long (160 × 160), the block's rows are copied first (layer
    /// 2 of YOLO11n: 2.72 → 2.46 ms, `compare.sh --pin 1 --rounds 6`).
    private func pointwiseConvolution(_ filters: PackedMatrix, _ parts: [(data: UnsafePointer<Float>, channels: Int)], planeSize: Int,
                                      epilogue: GEMMEpilogue? = nil, into output: UnsafeMutablePointer<Float>) {
        let blockSize = blockSize(depth: filters.depth, planeSize: planeSize)
        let tasks = GEMMTasks(blocks: (planeSize + blockSize - 1) / blockSize, panels: filters.panels)
        bias.withUnsafeBufferPointer { bias in
            guard let bias = bias.baseAddress else { return }
            let epilogue = epilogue ?? .biasActivation(bias: bias, activation: activation)
            ComputeThreads.parallelFor(tasks.count) { task in
                let (block, panels) = tasks(task)
                let start = block * blockSize, count = min(blockSize, planeSize - start)
                var rows = parts.map { GEMMInputRows(first: $0.data + start, count: $0.channels, stride: planeSize) }
                // Planes a multiple of 4 KiB long put every row of B in the same sets of the L1 cache
                // (64 sets of 64-byte lines): the block's rows are copied first, to rows that are not.
                var copy: Tensor?
                if planeSize % 1024 == 0 && panels.count > 1 {
                    var copyStride = (count + 15) / 16 * 16
                    if copyStride % 1024 == 0 { copyStride += 16 }
                    let buffer = Tensor(uninitializedShape: [filters.depth * copyStride])
                    var row = 0
                    for piece in rows {
                        for r in 0..<piece.count {
                            (buffer.data + (row + r) * copyStride).update(from: piece.first + r * piece.stride, count: count)
                        }
                        row += piece.count
                    }
                    rows = [GEMMInputRows(first: buffer.data, count: filters.depth, stride: copyStride)]
                    copy = buffer
                }
                defer { withExtendedLifetime(copy) {} }
                rows.withUnsafeBufferPointer { rows in
                    // [C_out, C_in] x [C_in, block] -> [C_out, block], rows of the output planeSize apart
                    // (The input, read in place, is not in cache yet; a copy is.)
                    packedGEMM(filters, panels: panels, b: rows, columns: count, c: output + start, rowStride: planeSize,
                               epilogue: epilogue, prefetchingB: copy == nil)
                }
            }
        }
    }

    /// `output = act(W · im2col(input) + b)`, block by block over the output positions (and shares
    /// of the output channels, see `GEMMTasks`).
    private func blockedGEMMConvolution(
        _ input: UnsafePointer<Float>, height: Int, width: Int,
        bias: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>
    ) {
        let g = geometry
        let planeSize = g.outputSize(height) * g.outputSize(width)
        let taps = g.kernelSize * g.kernelSize
        let groupInputs = g.inputChannels / g.groups, groupOutputs = g.outputChannels / g.groups
        let blockSize = blockSize(depth: g.filterSize, planeSize: planeSize)
        let tasks = GEMMTasks(blocks: (planeSize + blockSize - 1) / blockSize, panels: packedFilters[0].panels)
        ComputeThreads.parallelFor(tasks.count) { task in
            let (block, panels) = tasks(task)
            let start = block * blockSize, count = min(blockSize, planeSize - start)
            let columns = Tensor(uninitializedShape: [g.inputChannels * taps, count])
            im2col(input, channels: g.inputChannels, height: height, width: width, kernelSize: g.kernelSize,
                   stride: g.stride, padding: g.padding, positions: start..<(start + count), into: columns.data)
            for (group, filters) in packedFilters.enumerated() {
                // [C_out/g, C_in/g·k·k] x [C_in/g·k·k, block] -> [C_out/g, block], rows of the output planeSize apart
                packedGEMM(filters, panels: panels,
                           b: columns.data + group * groupInputs * taps * count, bRowStride: count, columns: count,
                           c: output + group * groupOutputs * planeSize + start, rowStride: planeSize,
                           epilogue: .biasActivation(bias: bias + group * groupOutputs, activation: activation))
            }
        }
    }
}
