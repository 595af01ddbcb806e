import YOLOKernels
import YOLOTensor

/// The compute of `Convolution` in this kernel set: the paths (Winograd, phase split, depthwise,
/// 1×1 GEMM, im2col + GEMM) over blocks of output positions.
extension Convolution {
    /// Convolves `C_in` planes of `height × width` into `C_out` planes at `output` (every output
    /// element is written), adding `residual` (as many floats as the output) to the result if given.
    func run(_ input: UnsafePointer<Float>, height: Int, width: Int, adding residual: UnsafePointer<Float>? = nil,
             into output: UnsafeMutablePointer<Float>) {
        let g = geometry
        if let residual, winograd == nil || phaseSplit != nil {
            run(input, height: height, width: width, into: output)
            addElementwise(output, residual, count: g.outputChannels * g.outputSize(height) * g.outputSize(width), into: output)
            return
        }
        bias.withUnsafeBufferPointer { bias in
            guard let bias = bias.baseAddress else { return }
            if let winograd, let phaseSplit {
                // Stride 2: the corner taps' sums, then the other taps, the bias and the activation added to them.
                winograd.run(input, height: height, width: width, bias: nil, activation: .identity, into: output)
                phaseSplit.run(input, height: height, width: width, bias: bias, activation: activation, accumulating: true, into: output)
            } else if let winograd {
                winograd.run(input, height: height, width: width, bias: bias, activation: activation, adding: residual, into: output)
            } else if let phaseSplit {
                phaseSplit.run(input, height: height, width: width, bias: bias, activation: activation, into: output)
            } else if g.isDepthwise {
                depthwiseFilters.withUnsafeBufferPointer { weights in
                    guard let weights = weights.baseAddress else { return }  // a depthwise layer has filters
                    depthwiseConvolution(
                        input, channels: g.inputChannels, height: height, width: width, weights: weights,
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

    /// `output = epilogue(W · [part₀; part₁; …])` for a 1×1 convolution with filters `filters` (by
    /// default `act(W · … + b)`), block by block over the positions: one GEMM per block reads the parts
    /// in place, one after another along its depth, and applies the epilogue before it stores. Where
    /// the planes are a multiple of 4 KiB long (160 × 160), the block's rows are copied first, so
    /// that they do not all fall into the same L1 cache sets.
    func pointwiseConvolution(_ filters: PackedMatrix, _ parts: [(data: UnsafePointer<Float>, channels: Int)], planeSize: Int,
                                      epilogue: GEMMEpilogue? = nil, into output: UnsafeMutablePointer<Float>) {
        let blockSize = blockSize(depth: filters.depth, planeSize: planeSize, lanes: FloatVector.scalarCount)
        let threads = ComputeThreads.count
        let tasks = GEMMTasks(planeSize: planeSize, blockSize: blockSize, panels: filters.panels, threads: threads)
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
                if Self.copiesPointwiseBlocks(planeSize: planeSize, panels: panels.count) {
                    let copyStride = Self.pointwiseCopyStride(count)
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
                               epilogue: epilogue, prefetching: GEMMPrefetch.filters(forBlock: block, threads: threads).union(copy == nil ? .inputRows : []))
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
        let blockSize = blockSize(depth: g.filterSize, planeSize: planeSize, lanes: FloatVector.scalarCount)
        let threads = ComputeThreads.count
        let tasks = GEMMTasks(planeSize: planeSize, blockSize: blockSize, panels: packedFilters[0].panels, threads: threads)
        ComputeThreads.parallelFor(tasks.count) { task in
            let (block, panels) = tasks(task)
            let start = block * blockSize, count = min(blockSize, planeSize - start)
            let columns = Tensor(uninitializedShape: [im2colFloats(positions: count)])
            im2col(input, channels: g.inputChannels, height: height, width: width, kernelSize: g.kernelSize,
                   stride: g.stride, padding: g.padding, positions: start..<(start + count), into: columns.data)
            let prefetching = GEMMPrefetch.filters(forBlock: block, threads: threads)
            for (group, filters) in packedFilters.enumerated() {
                // [C_out/g, C_in/g·k·k] x [C_in/g·k·k, block] -> [C_out/g, block], rows of the output planeSize apart
                packedGEMM(filters, panels: panels,
                           b: columns.data + group * groupInputs * taps * count, bRowStride: count, columns: count,
                           c: output + group * groupOutputs * planeSize + start, rowStride: planeSize,
                           epilogue: .biasActivation(bias: bias + group * groupOutputs, activation: activation),
                           prefetching: prefetching)
            }
        }
    }
}
