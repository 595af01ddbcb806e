import YOLOKernels
import YOLOTensor

/// This module's kernels, compiled for its instruction set (`InstructionSet.swift`), as the table
/// the layers call through (`KernelSet`); with preprocessing's loops (`ImageKernels/`, the same
/// sources as `YOLOImage`'s portable ones).
package let kernelSet = KernelSet(
    name: InstructionSet.name, instructions: InstructionSet.instructions, vectorLanes: FloatVector.scalarCount,
    microkernelRows: microkernelRows, fusedMultiplyAdd: InstructionSet.fusedMultiplyAdd,
    convolve: { convolution, input, height, width, residual, output in
        convolution.run(input, height: height, width: width, adding: residual, into: output)
    },
    pointwise: { convolution, filters, parts, planeSize, epilogue, output in
        convolution.pointwiseConvolution(filters, parts, planeSize: planeSize, epilogue: epilogue, into: output)
    },
    packedGEMM: { a, panels, b, columns, c, rowStride, epilogue, prefetching in
        packedGEMM(a, panels: panels, b: b, columns: columns, c: c, rowStride: rowStride, epilogue: epilogue, prefetching: prefetching)
    },
    im2col: { input, channels, height, width, kernelSize, stride, padding, positions, columns in
        im2col(input, channels: channels, height: height, width: width, kernelSize: kernelSize, stride: stride, padding: padding,
               positions: positions, into: columns)
    },
    depthwise: { input, channels, height, width, weights, kernelSize, stride, padding, bias, activation, output in
        depthwiseConvolution(input, channels: channels, height: height, width: width, weights: weights, kernelSize: kernelSize,
                             stride: stride, padding: padding, bias: bias, activation: activation, into: output)
    },
    maxPool: { input, channels, height, width, kernelSize, stride, padding, output in
        maxPool2d(input, channels: channels, height: height, width: width, kernelSize: kernelSize, stride: stride, padding: padding,
                  into: output)
    },
    upsample: { input, channels, height, width, factor, output in
        upsampleNearest(input, channels: channels, height: height, width: width, factor: factor, into: output)
    },
    add: { a, b, count, output in addElementwise(a, b, count: count, into: output) },
    biasActivation: { values, count, bias, activation, residual in
        addBiasAndActivate(values, count: count, bias: bias, activation: activation, adding: residual)
    },
    sigmoid: { source, count, destination in sigmoid(source, count: count, into: destination) },
    softmaxColumns: { values, rows, columns in softmaxColumnsInPlace(values, rows: rows, columns: columns) },
    exp: { source, count, destination in exponentials(source, count: count, into: destination) },
    expectation: { logits, planeSize, count, weights, bins, output in
        distributionExpectations(logits, planeSize: planeSize, count: count, weights: weights, bins: bins, into: output)
    },
    imageKernels: compiledImageKernels)
