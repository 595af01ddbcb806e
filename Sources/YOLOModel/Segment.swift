import YOLOKernels

/// Ultralytics' `Segment(Detect)` head in inference mode: Detect's boxes and scores, then per anchor
/// `nm` mask coefficients (`cv4[i]`: 3×3 Conv, 3×3 Conv, 1×1 Conv2d, left raw), and the prototypes
/// `Proto(x[0])` that the coefficients weigh into each object's mask.
struct Segment: DetectionHead {
    let detect: Detect
    let maskCount: Int
    let coefficientBranches: [Sequential]
    /// The coefficient branches' hidden channels.
    let coefficientChannels: Int
    let proto: Proto

    /// - Parameters:
    ///   - maskCount: `nm`, the prototypes (32).
    ///   - protoChannels: `npr` after width scaling, Proto's hidden channels.
    init(_ weights: WeightScope, classCount: Int, maskCount: Int, protoChannels: Int, inputChannels: [Int], strides: [Int]) throws {
        detect = try Detect(weights, classCount: classCount, inputChannels: inputChannels, strides: strides)
        self.maskCount = maskCount
        proto = try Proto(weights.child("proto"), inputChannels: inputChannels[0], hiddenChannels: protoChannels, outputChannels: maskCount)
        let hidden = max(inputChannels[0] / 4, maskCount)
        coefficientChannels = hidden
        coefficientBranches = try inputChannels.enumerated().map { level, channels in
            let scope = weights.child("cv4").child(level)
            return Sequential(modules: [
                try Conv(scope.child(0), inputChannels: channels, outputChannels: hidden, kernelSize: 3),
                try Conv(scope.child(1), inputChannels: hidden, outputChannels: hidden, kernelSize: 3),
                try Conv2d(scope.child(2), inputChannels: hidden, outputChannels: maskCount),
            ])
        }
    }

    var extras: HeadExtras { .maskCoefficients(count: maskCount) }

    /// The coefficient branches, then Proto on the finest level (whose maps `scratchBytes` counts itself).
    var extraBranches: [HeadBranch] { rawMapBranches + [HeadBranch(module: proto, level: 0, mapChannels: 0)] }

    var rawMapBranches: [HeadBranch] {
        coefficientBranches.enumerated().map { HeadBranch(module: $1, level: $0, mapChannels: coefficientChannels) }
    }

    func run(_ levels: [Tensor]) -> HeadOutput {
        let (detected, extra) = detect(levels, besides: extraBranches)
        return HeadOutput(predictions: predictions(detected, extraRows: Array(extra.dropLast())), prototypes: extra.last)
    }

    /// Proto's maps at the finest level (its first convolution's output) and at twice its size (the
    /// upsampled map, the next convolution's output, the prototypes), plus the coefficient maps and
    /// the branches running side by side.
    func scratchBytes(_ sizes: [(Int, Int)]) -> Int {
        guard let finest = sizes.first else { return 0 }
        let hidden = proto.cv1.convolution.geometry.outputChannels
        let planes = hidden * finest.0 * finest.1 + (2 * hidden + maskCount) * 4 * finest.0 * finest.1
        return MemoryLayout<Float>.stride * (planes + sizes.reduce(0) { $0 + maskCount * $1.0 * $1.1 }) + branchScratchBytes(sizes)
    }

    var parameterCount: Int {
        coefficientBranches.reduce(detect.parameterCount + proto.parameterCount) { $0 + $1.parameterCount }
    }
}
