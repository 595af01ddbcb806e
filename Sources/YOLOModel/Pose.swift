import YOLOKernels

/// Ultralytics' `Pose(Detect)` head in inference mode: Detect's boxes and scores, then per anchor
/// `K · D` keypoint values (`cv4[i]`: 3×3 Conv, 3×3 Conv, 1×1 Conv2d) decoded as `kpts_decode` does:
/// `x = (2·raw + anchor_x − 0.5) · stride`, the same for `y`, and the visibility through the sigmoid.
struct Pose: DetectionHead {
    let detect: Detect
    let keypointCount: Int
    /// 2 (x, y) or 3 (x, y, visibility).
    let keypointDimensions: Int
    let keypointBranches: [Sequential]
    /// The keypoint branches' hidden channels.
    let keypointChannels: Int

    init(_ weights: WeightScope, classCount: Int, keypointCount: Int, keypointDimensions: Int, inputChannels: [Int], strides: [Int]) throws {
        detect = try Detect(weights, classCount: classCount, inputChannels: inputChannels, strides: strides)
        self.keypointCount = keypointCount
        self.keypointDimensions = keypointDimensions
        let values = keypointCount * keypointDimensions
        let hidden = max(inputChannels[0] / 4, values)
        keypointChannels = hidden
        keypointBranches = try inputChannels.enumerated().map { level, channels in
            let scope = weights.child("cv4").child(level)
            return Sequential(modules: [
                try Conv(scope.child(0), inputChannels: channels, outputChannels: hidden, kernelSize: 3),
                try Conv(scope.child(1), inputChannels: hidden, outputChannels: hidden, kernelSize: 3),
                try Conv2d(scope.child(2), inputChannels: hidden, outputChannels: values),
            ])
        }
    }

    var extras: HeadExtras { .keypoints(count: keypointCount, dimensions: keypointDimensions) }

    var extraBranches: [HeadBranch] { rawMapBranches }

    var rawMapBranches: [HeadBranch] {
        keypointBranches.enumerated().map { HeadBranch(module: $1, level: $0, mapChannels: keypointChannels) }
    }

    func run(_ levels: [Tensor]) -> HeadOutput {
        let (detected, keypoints) = detect(levels, besides: extraBranches)  // each [1, K · D, H, W]
        for (level, raw) in keypoints.enumerated() { decodeKeypoints(raw, stride: Float(detect.strides[level])) }
        return HeadOutput(predictions: predictions(detected, extraRows: keypoints), prototypes: nil)
    }

    /// `kpts_decode` in place on one level's `[1, K · D, H, W]` map.
    private func decodeKeypoints(_ map: Tensor, stride: Float) {
        let (_, height, width) = map.chw
        let planeSize = height * width
        ComputeThreads.parallelFor(keypointCount) { k in
            let x = map.data + k * keypointDimensions * planeSize, y = x + planeSize
            for row in 0..<height {
                for column in 0..<width {
                    let i = row * width + column
                    // (anchor - 0.5) with anchors at cell centres (column + 0.5) is the cell index.
                    x[i] = (x[i] * 2 + Float(column)) * stride
                    y[i] = (y[i] * 2 + Float(row)) * stride
                }
            }
            if keypointDimensions == 3 {
                let visibility = y + planeSize
                KernelSet.active.sigmoid(visibility, count: planeSize, into: visibility)
            }
        }
    }

    var parameterCount: Int { keypointBranches.reduce(detect.parameterCount) { $0 + $1.parameterCount } }
}
