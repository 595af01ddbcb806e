import YOLOKernels

/// Ultralytics' YOLO11 `Detect` head (non-legacy: depthwise class branch) in inference mode.
///
/// For each level `i` (strides 8, 16, 32): `box_i = cv2[i](x_i)` (`4 · bins` channels of DFL logits)
/// and `cls_i = cv3[i](x_i)` (`nc` channels). The output is `[1, 4 + nc, anchors]`, anchors running over
/// the levels in order and over each level's grid row by row: rows 0–3 are the decoded box `x, y, w, h`
/// in input pixels, rows `4…` the sigmoid class scores.
struct Detect: Sendable {
    let classCount: Int
    let bins: Int
    let strides: [Int]
    let boxBranches: [Sequential]
    let classBranches: [Sequential]
    let dfl: DFL

    init(_ weights: WeightScope, classCount: Int, inputChannels: [Int], strides: [Int], bins: Int = 16) throws {
        self.classCount = classCount
        self.bins = bins
        self.strides = strides
        let boxChannels = max(16, inputChannels[0] / 4, bins * 4)
        let classChannels = max(inputChannels[0], min(classCount, 100))
        boxBranches = try inputChannels.enumerated().map { level, channels in
            let scope = weights.child("cv2").child(level)
            return Sequential(modules: [
                try Conv(scope.child(0), inputChannels: channels, outputChannels: boxChannels, kernelSize: 3),
                try Conv(scope.child(1), inputChannels: boxChannels, outputChannels: boxChannels, kernelSize: 3),
                try Conv2d(scope.child(2), inputChannels: boxChannels, outputChannels: 4 * bins),
            ])
        }
        classBranches = try inputChannels.enumerated().map { level, channels in
            let scope = weights.child("cv3").child(level)
            return Sequential(modules: [
                Sequential(modules: [
                    try DWConv.load(scope.child(0).child(0), inputChannels: channels, outputChannels: channels, kernelSize: 3),
                    try Conv(scope.child(0).child(1), inputChannels: channels, outputChannels: classChannels),
                ]),
                Sequential(modules: [
                    try DWConv.load(scope.child(1).child(0), inputChannels: classChannels, outputChannels: classChannels, kernelSize: 3),
                    try Conv(scope.child(1).child(1), inputChannels: classChannels, outputChannels: classChannels),
                ]),
                try Conv2d(scope.child(2), inputChannels: classChannels, outputChannels: classCount),
            ])
        }
        dfl = try DFL(weights.child("dfl"), bins: bins)
    }

    /// Decodes the levels' feature maps into `[1, 4 + nc, anchors]`.
    func callAsFunction(_ levels: [Tensor]) -> Tensor {
        let (boxes, scores) = rawOutputs(levels)
        let anchorCount = boxes.reduce(0) { $0 + $1.chw.height * $1.chw.width }
        let output = Tensor(uninitializedShape: [1, 4 + classCount, anchorCount])
        var firstAnchor = 0
        for (level, (box, score)) in zip(boxes, scores).enumerated() {
            let (_, height, width) = box.chw
            let planeSize = height * width
            decodeBoxes(box.data, height: height, width: width, stride: Float(strides[level]),
                        into: output.data + firstAnchor, rowStride: anchorCount)
            // Class scores: each class plane becomes a run of its output row, through the sigmoid.
            ComputeThreads.parallelFor(classCount) { c in
                KernelSet.active.sigmoid(score.data + c * planeSize, count: planeSize, into: output.data + (4 + c) * anchorCount + firstAnchor)
            }
            firstAnchor += planeSize
        }
        return output
    }

    /// `dist2bbox(xywh=True)`: the DFL distances (left, top, right, bottom) around each cell's centre
    /// `(x + 0.5, y + 0.5)`, as a box centre and size, times the stride. Writes rows 0–3 of the output
    /// (`rowStride` floats apart) for this level's `height · width` anchors.
    private func decodeBoxes(_ logits: UnsafePointer<Float>, height: Int, width: Int, stride: Float,
                             into output: UnsafeMutablePointer<Float>, rowStride: Int) {
        let planeSize = height * width
        let distances = UnsafeMutablePointer<Float>.allocate(capacity: 4 * planeSize)
        defer { distances.deallocate() }
        ComputeThreads.parallelFor(4) { side in
            dfl.expectations(logits + side * bins * planeSize, planeSize: planeSize, count: planeSize,
                             into: distances + side * planeSize)
        }
        let (left, top, right, bottom) = (distances, distances + planeSize, distances + 2 * planeSize, distances + 3 * planeSize)
        for y in 0..<height {
            let anchorY = Float(y) + 0.5
            for x in 0..<width {
                let i = y * width + x
                let anchorX = Float(x) + 0.5
                let x1 = anchorX - left[i], y1 = anchorY - top[i]
                let x2 = anchorX + right[i], y2 = anchorY + bottom[i]
                output[i] = (x1 + x2) / 2 * stride
                output[rowStride + i] = (y1 + y2) / 2 * stride
                output[2 * rowStride + i] = (x2 - x1) * stride
                output[3 * rowStride + i] = (y2 - y1) * stride
            }
        }
    }

    /// Each level's box logits `[1, 4 · bins, H, W]` and class logits `[1, nc, H, W]`, before decoding.
    func rawOutputs(_ levels: [Tensor]) -> (boxes: [Tensor], scores: [Tensor]) {
        precondition(levels.count == boxBranches.count, "Detect takes \(boxBranches.count) levels, got \(levels.count)")
        return (zip(boxBranches, levels).map { $0($1) }, zip(classBranches, levels).map { $0($1) })
    }

    /// FLOPs of the branches for the levels' sizes (the DFL decode is not counted).
    func flops(_ sizes: [(Int, Int)]) -> Int {
        zip(sizes, zip(boxBranches, classBranches)).reduce(0) { $0 + $1.1.0.flops($1.0) + $1.1.1.flops($1.0) }
    }

    var parameterCount: Int {
        (boxBranches + classBranches).reduce(dfl.parameterCount) { $0 + $1.parameterCount }
    }
}
