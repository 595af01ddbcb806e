import YOLOTensor

/// One set of the engine's SIMD kernels, compiled for one instruction set, as a table of the
/// operations the layers call: the drivers and the layers hold no code that depends on the
/// instruction set, and everything shaped by it (vector width, the GEMM micro-kernel's tile, the
/// Winograd and convolution blocking) travels with the set.
///
/// The same kernel source (`Sources/YOLOKernelsShared`) is compiled once per set, each time with
/// its own `InstructionSet.swift` and compiler target: `baseline` (any x86-64, and what an aarch64
/// build runs), `avx2` (x86-64-v3: AVX2 + FMA, 8-float vectors) and `avx512` (x86-64-v4: AVX-512
/// F/BW/DQ/VL, 16-float vectors). `YOLOKernelSets` picks one at load (`KernelSet.active`).
package struct KernelSet: Sendable {
    /// `baseline`, `avx2` or `avx512`: what `SWIFTYOLO_KERNELS` names.
    package let name: String
    /// The instructions it is compiled for, in words (`AVX2 + FMA`).
    package let instructions: String
    /// Floats in the element-wise kernels' vectors.
    package let vectorLanes: Int
    /// Rows of the GEMM micro-kernel's tile in one pass (its columns are two vectors).
    package let microkernelRows: Int
    /// Whether multiply-adds are fused (one rounding) or a multiply and an add.
    package let fusedMultiplyAdd: Bool

    package let convolveKernel: @Sendable (Convolution, UnsafePointer<Float>, Int, Int, UnsafePointer<Float>?, UnsafeMutablePointer<Float>) -> Void
    package let pointwiseKernel: @Sendable (Convolution, PackedMatrix, [(data: UnsafePointer<Float>, channels: Int)], Int, GEMMEpilogue?, UnsafeMutablePointer<Float>) -> Void
    package let packedGEMMKernel: @Sendable (PackedMatrix, Range<Int>, UnsafeBufferPointer<GEMMInputRows>, Int, UnsafeMutablePointer<Float>, Int, GEMMEpilogue, GEMMPrefetch) -> Void
    package let im2colKernel: @Sendable (UnsafePointer<Float>, Int, Int, Int, Int, Int, Int, Range<Int>, UnsafeMutablePointer<Float>) -> Void
    package let depthwiseKernel: @Sendable (UnsafePointer<Float>, Int, Int, Int, UnsafePointer<Float>, Int, Int, Int, UnsafePointer<Float>, Activation, UnsafeMutablePointer<Float>) -> Void
    package let maxPoolKernel: @Sendable (UnsafePointer<Float>, Int, Int, Int, Int, Int, Int, UnsafeMutablePointer<Float>) -> Void
    package let upsampleKernel: @Sendable (UnsafePointer<Float>, Int, Int, Int, Int, UnsafeMutablePointer<Float>) -> Void
    package let addKernel: @Sendable (UnsafePointer<Float>, UnsafePointer<Float>, Int, UnsafeMutablePointer<Float>) -> Void
    package let biasActivationKernel: @Sendable (UnsafeMutablePointer<Float>, Int, Float, Activation, UnsafePointer<Float>?) -> Void
    package let sigmoidKernel: @Sendable (UnsafePointer<Float>, Int, UnsafeMutablePointer<Float>) -> Void
    package let softmaxColumnsKernel: @Sendable (UnsafeMutablePointer<Float>, Int, Int) -> Void
    package let expKernel: @Sendable (UnsafePointer<Float>, Int, UnsafeMutablePointer<Float>) -> Void
    package let expectationKernel: @Sendable (UnsafePointer<Float>, Int, Int, UnsafePointer<Float>, Int, UnsafeMutablePointer<Float>) -> Void
    /// Preprocessing's loops over every pixel (the bilinear resize's passes, RGB bytes to planar
    /// floats), compiled for this set's instruction set.
    package let imageKernels: ImageKernels

    package init(
        name: String, instructions: String, vectorLanes: Int, microkernelRows: Int, fusedMultiplyAdd: Bool,
        convolve: @escaping @Sendable (Convolution, UnsafePointer<Float>, Int, Int, UnsafePointer<Float>?, UnsafeMutablePointer<Float>) -> Void,
        pointwise: @escaping @Sendable (Convolution, PackedMatrix, [(data: UnsafePointer<Float>, channels: Int)], Int, GEMMEpilogue?, UnsafeMutablePointer<Float>) -> Void,
        packedGEMM: @escaping @Sendable (PackedMatrix, Range<Int>, UnsafeBufferPointer<GEMMInputRows>, Int, UnsafeMutablePointer<Float>, Int, GEMMEpilogue, GEMMPrefetch) -> Void,
        im2col: @escaping @Sendable (UnsafePointer<Float>, Int, Int, Int, Int, Int, Int, Range<Int>, UnsafeMutablePointer<Float>) -> Void,
        depthwise: @escaping @Sendable (UnsafePointer<Float>, Int, Int, Int, UnsafePointer<Float>, Int, Int, Int, UnsafePointer<Float>, Activation, UnsafeMutablePointer<Float>) -> Void,
        maxPool: @escaping @Sendable (UnsafePointer<Float>, Int, Int, Int, Int, Int, Int, UnsafeMutablePointer<Float>) -> Void,
        upsample: @escaping @Sendable (UnsafePointer<Float>, Int, Int, Int, Int, UnsafeMutablePointer<Float>) -> Void,
        add: @escaping @Sendable (UnsafePointer<Float>, UnsafePointer<Float>, Int, UnsafeMutablePointer<Float>) -> Void,
        biasActivation: @escaping @Sendable (UnsafeMutablePointer<Float>, Int, Float, Activation, UnsafePointer<Float>?) -> Void,
        sigmoid: @escaping @Sendable (UnsafePointer<Float>, Int, UnsafeMutablePointer<Float>) -> Void,
        softmaxColumns: @escaping @Sendable (UnsafeMutablePointer<Float>, Int, Int) -> Void,
        exp: @escaping @Sendable (UnsafePointer<Float>, Int, UnsafeMutablePointer<Float>) -> Void,
        expectation: @escaping @Sendable (UnsafePointer<Float>, Int, Int, UnsafePointer<Float>, Int, UnsafeMutablePointer<Float>) -> Void,
        imageKernels: ImageKernels
    ) {
        self.name = name
        self.instructions = instructions
        self.vectorLanes = vectorLanes
        self.microkernelRows = microkernelRows
        self.fusedMultiplyAdd = fusedMultiplyAdd
        convolveKernel = convolve
        pointwiseKernel = pointwise
        packedGEMMKernel = packedGEMM
        im2colKernel = im2col
        depthwiseKernel = depthwise
        maxPoolKernel = maxPool
        upsampleKernel = upsample
        addKernel = add
        biasActivationKernel = biasActivation
        sigmoidKernel = sigmoid
        softmaxColumnsKernel = softmaxColumns
        expKernel = exp
        expectationKernel = expectation
        self.imageKernels = imageKernels
    }

    /// The set the layers run, chosen once at load by `YOLOKernelSets` (by `SWIFTYOLO_KERNELS`, else
    /// the best one the CPU has).
    package static var active: KernelSet {
        guard let installed = installedSet else {
            preconditionFailure("no kernel set is active: YOLOKernelSets.KernelSets.activate() runs before the first layer")
        }
        return installed
    }

    /// Makes `set` the active one; `YOLOKernelSets` calls it once, before any layer runs.
    package static func install(_ set: KernelSet) { installedSet = set }

    nonisolated(unsafe) private static var installedSet: KernelSet?
}

// MARK: - The operations, with their labels

extension KernelSet {
    /// `C = epilogue(A · B)` (see the kernel source's `packedGEMM`).
    package func packedGEMM(_ a: PackedMatrix, panels: Range<Int>, b: UnsafeBufferPointer<GEMMInputRows>, columns: Int,
                           c: UnsafeMutablePointer<Float>, rowStride: Int, epilogue: GEMMEpilogue, prefetching: GEMMPrefetch = []) {
        packedGEMMKernel(a, panels, b, columns, c, rowStride, epilogue, prefetching)
    }

    /// `packedGEMM` with `B` one block of rows.
    package func packedGEMM(_ a: PackedMatrix, panels: Range<Int>, b: UnsafePointer<Float>, bRowStride: Int, columns: Int,
                           c: UnsafeMutablePointer<Float>, rowStride: Int, epilogue: GEMMEpilogue, prefetching: GEMMPrefetch = []) {
        var rows = GEMMInputRows(first: b, count: a.depth, stride: bRowStride)
        withUnsafeMutablePointer(to: &rows) { pointer in
            packedGEMMKernel(a, panels, UnsafeBufferPointer(start: pointer, count: 1), columns, c, rowStride, epilogue, prefetching)
        }
    }

    /// The `k × k` patches of `positions` output positions, one column per position, `C_in · k²` rows.
    package func im2col(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int, kernelSize: Int, stride: Int,
                       padding: Int, positions: Range<Int>, into columns: UnsafeMutablePointer<Float>) {
        im2colKernel(input, channels, height, width, kernelSize, stride, padding, positions, columns)
    }

    /// A depthwise convolution with bias and activation, `C` planes into `C` planes.
    package func depthwiseConvolution(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int, weights: UnsafePointer<Float>,
                                     kernelSize: Int, stride: Int, padding: Int, bias: UnsafePointer<Float>, activation: Activation,
                                     into output: UnsafeMutablePointer<Float>) {
        depthwiseKernel(input, channels, height, width, weights, kernelSize, stride, padding, bias, activation, output)
    }

    /// `nn.MaxPool2d(kernelSize, stride, padding)` over `C` planes.
    package func maxPool2d(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int, kernelSize: Int, stride: Int,
                          padding: Int, into output: UnsafeMutablePointer<Float>) {
        maxPoolKernel(input, channels, height, width, kernelSize, stride, padding, output)
    }

    /// `output = epilogue(W · [part₀; part₁; …])` for the 1×1 `convolution` with filters `filters`
    /// (some of its columns, or all), the parts read in place: `planeSize` positions, each part's
    /// channels one after another. The default epilogue is the convolution's bias and activation.
    package func pointwiseConvolution(_ convolution: Convolution, filters: PackedMatrix, parts: [(data: UnsafePointer<Float>, channels: Int)],
                                      planeSize: Int, epilogue: GEMMEpilogue? = nil, into output: UnsafeMutablePointer<Float>) {
        pointwiseKernel(convolution, filters, parts, planeSize, epilogue, output)
    }

    /// Nearest-neighbour upsampling of `C` planes by `factor`.
    package func upsampleNearest(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int, factor: Int,
                                into output: UnsafeMutablePointer<Float>) {
        upsampleKernel(input, channels, height, width, factor, output)
    }

    /// `output[i] = a[i] + b[i]`; `output` may be `a`.
    package func addElementwise(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int, into output: UnsafeMutablePointer<Float>) {
        addKernel(a, b, count, output)
    }

    /// `values = act(values + bias) (+ residual)` in place.
    package func addBiasAndActivate(_ values: UnsafeMutablePointer<Float>, count: Int, bias: Float, activation: Activation,
                                   adding residual: UnsafePointer<Float>? = nil) {
        biasActivationKernel(values, count, bias, activation, residual)
    }

    /// `destination[i] = 1 / (1 + e^(−source[i]))`; in place or not overlapping.
    package func sigmoid(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<Float>) {
        sigmoidKernel(source, count, destination)
    }

    /// The softmax of each column of a row-major `rows × columns` matrix, in place.
    package func softmaxColumnsInPlace(_ values: UnsafeMutablePointer<Float>, rows: Int, columns: Int) {
        softmaxColumnsKernel(values, rows, columns)
    }

    /// `destination[i] = e^source[i]` by the kernels' vector exponential.
    package func exponentials(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<Float>) {
        expKernel(source, count, destination)
    }

    /// DFL's expectations: for each of `count` anchors, `Σ_j weights[j] · softmax(logits[·, anchor])_j`
    /// over `bins` planes of `planeSize` floats.
    package func distributionExpectations(_ logits: UnsafePointer<Float>, planeSize: Int, count: Int, weights: UnsafePointer<Float>,
                                         bins: Int, into output: UnsafeMutablePointer<Float>) {
        expectationKernel(logits, planeSize, count, weights, bins, output)
    }
}
