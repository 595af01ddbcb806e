import YOLOKernels

/// Ultralytics' `Detect` head (non-legacy: depthwise class branch) in inference mode, for YOLO11
/// (DFL over 16 bins) and YOLO26 (`reg_max` 1: the box branch predicts the distances directly).
///
/// For each level `i` (strides 8, 16, 32): `box_i = cv2[i](x_i)` (`4 · bins` channels: DFL logits, or
/// distances when `bins` is 1) and `cls_i = cv3[i](x_i)` (`nc` channels). The output is `[1, 4 + nc, anchors]`,
/// anchors running over the levels in order and over each level's grid row by row: rows 0–3 are the
/// decoded box `x, y, w, h` in input pixels, rows `4…` the sigmoid class scores.
///
/// An end-to-end head (`end2end: True`, YOLO26) also carries the one-to-one branches `one2one_cv2` and
/// `one2one_cv3`, of the same shapes; `oneToOne(_:)` runs them (Ultralytics' `nms=False`).
struct Detect: Sendable {
    let classCount: Int
    let bins: Int
    let strides: [Int]
    let boxBranches: [Sequential]
    let classBranches: [Sequential]
    /// `nil` when `bins` is 1.
    let dfl: DFL?
    /// The one-to-one branches of an end-to-end head, else `nil`.
    let oneToOneBranches: (boxes: [Sequential], scores: [Sequential])?
    /// The widest map inside a box branch (channels; the same on every level), and per level inside a class branch.
    let boxMapChannels: Int
    let classMapChannels: [Int]

    init(_ weights: WeightScope, classCount: Int, inputChannels: [Int], strides: [Int], bins: Int = 16, endToEnd: Bool = false) throws {
        self.classCount = classCount
        self.bins = bins
        self.strides = strides
        let boxChannels = max(16, inputChannels[0] / 4, bins * 4)
        let classChannels = max(inputChannels[0], min(classCount, 100))
        boxMapChannels = boxChannels
        classMapChannels = inputChannels.map { max($0, classChannels, classCount) }
        func boxBranches(_ scope: WeightScope) throws -> [Sequential] {
            try inputChannels.enumerated().map { level, channels in
                let scope = scope.child(level)
                return Sequential(modules: [
                    try Conv(scope.child(0), inputChannels: channels, outputChannels: boxChannels, kernelSize: 3),
                    try Conv(scope.child(1), inputChannels: boxChannels, outputChannels: boxChannels, kernelSize: 3),
                    try Conv2d(scope.child(2), inputChannels: boxChannels, outputChannels: 4 * bins),
                ])
            }
        }
        func classBranches(_ scope: WeightScope) throws -> [Sequential] {
            try inputChannels.enumerated().map { level, channels in
                let scope = scope.child(level)
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
        }
        self.boxBranches = try boxBranches(weights.child("cv2"))
        self.classBranches = try classBranches(weights.child("cv3"))
        dfl = bins > 1 ? try DFL(weights.child("dfl"), bins: bins) : nil
        oneToOneBranches = endToEnd ? (try boxBranches(weights.child("one2one_cv2")), try classBranches(weights.child("one2one_cv3"))) : nil
    }

    /// Decodes the levels' feature maps into `[1, 4 + nc, anchors]` (boxes as `x, y, w, h`).
    func callAsFunction(_ levels: [Tensor]) -> Tensor {
        decode(rawOutputs(levels), centerSize: true)
    }

    /// `self(levels)` and the outputs of a head's `extra` branches, run with Detect's own so that the
    /// threads can share them all out (`HeadBranch.run`).
    func callAsFunction(_ levels: [Tensor], besides extra: [HeadBranch]) -> (detected: Tensor, extra: [Tensor]) {
        let (raw, extraOutputs) = rawOutputs(levels, oneToOne: false, besides: extra)
        return (decode(raw, centerSize: true), extraOutputs)
    }

    /// The one-to-one branches' output `[1, 4 + nc, anchors]`, with boxes as `x1, y1, x2, y2` as
    /// Ultralytics decodes them for end-to-end inference.
    func oneToOne(_ levels: [Tensor]) -> Tensor {
        decode(rawOutputs(levels, oneToOne: true), centerSize: false)
    }

    /// `[1, 4 + nc, anchors]` from the branches' per-level maps: `centerSize` boxes as `x, y, w, h`, else `x1, y1, x2, y2`.
    private func decode(_ raw: (boxes: [Tensor], scores: [Tensor]), centerSize: Bool) -> Tensor {
        let (boxes, scores) = raw
        let anchorCount = boxes.reduce(0) { $0 + $1.chw.height * $1.chw.width }
        let output = Tensor(uninitializedShape: [1, 4 + classCount, anchorCount])
        var firstAnchor = 0
        for (level, (box, score)) in zip(boxes, scores).enumerated() {
            let (_, height, width) = box.chw
            let planeSize = height * width
            decodeBoxes(box.data, height: height, width: width, stride: Float(strides[level]), centerSize: centerSize,
                        into: output.data + firstAnchor, rowStride: anchorCount)
            // Class scores: each class plane becomes a run of its output row, through the sigmoid.
            ComputeThreads.parallelFor(classCount) { c in
                KernelSet.active.sigmoid(score.data + c * planeSize, count: planeSize, into: output.data + (4 + c) * anchorCount + firstAnchor)
            }
            firstAnchor += planeSize
        }
        return output
    }

    /// `dist2bbox`: the distances (left, top, right, bottom; DFL expectations, or the branch's output
    /// itself when `bins` is 1) around each cell's centre `(x + 0.5, y + 0.5)`, as a box centre and size
    /// (`centerSize`, `xywh=True`) or as corners, times the stride. Writes rows 0–3 of the output
    /// (`rowStride` floats apart) for this level's `height · width` anchors.
    private func decodeBoxes(_ logits: UnsafePointer<Float>, height: Int, width: Int, stride: Float, centerSize: Bool,
                             into output: UnsafeMutablePointer<Float>, rowStride: Int) {
        let planeSize = height * width
        let expectations = dfl.map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 4 * planeSize) }
        defer { expectations?.deallocate() }
        if let dfl, let expectations {
            ComputeThreads.parallelFor(4) { side in
                dfl.expectations(logits + side * bins * planeSize, planeSize: planeSize, count: planeSize,
                                 into: expectations + side * planeSize)
            }
        }
        let distances = UnsafePointer(expectations) ?? logits
        let (left, top, right, bottom) = (distances, distances + planeSize, distances + 2 * planeSize, distances + 3 * planeSize)
        for y in 0..<height {
            let anchorY = Float(y) + 0.5
            for x in 0..<width {
                let i = y * width + x
                let anchorX = Float(x) + 0.5
                let x1 = anchorX - left[i], y1 = anchorY - top[i]
                let x2 = anchorX + right[i], y2 = anchorY + bottom[i]
                if centerSize {
                    output[i] = (x1 + x2) / 2 * stride
                    output[rowStride + i] = (y1 + y2) / 2 * stride
                    output[2 * rowStride + i] = (x2 - x1) * stride
                    output[3 * rowStride + i] = (y2 - y1) * stride
                } else {
                    output[i] = x1 * stride
                    output[rowStride + i] = y1 * stride
                    output[2 * rowStride + i] = x2 * stride
                    output[3 * rowStride + i] = y2 * stride
                }
            }
        }
    }

    /// Each level's box logits `[1, 4 · bins, H, W]` and class logits `[1, nc, H, W]`, before decoding,
    /// from the one-to-many branches or (`oneToOne`, for an end-to-end head) the one-to-one branches.
    func rawOutputs(_ levels: [Tensor], oneToOne: Bool = false) -> (boxes: [Tensor], scores: [Tensor]) {
        let (raw, _) = rawOutputs(levels, oneToOne: oneToOne, besides: [])
        return raw
    }

    /// `rawOutputs(_:oneToOne:)` and the outputs of `extra` branches, which run with Detect's.
    func rawOutputs(_ levels: [Tensor], oneToOne: Bool, besides extra: [HeadBranch]) -> (raw: (boxes: [Tensor], scores: [Tensor]), extra: [Tensor]) {
        precondition(levels.count == boxBranches.count, "Detect takes \(boxBranches.count) levels, got \(levels.count)")
        precondition(!oneToOne || oneToOneBranches != nil, "this Detect head has no one-to-one branches")
        let outputs = HeadBranch.run(branches(oneToOne: oneToOne) + extra, on: levels)
        let levelCount = boxBranches.count
        return ((Array(outputs[..<levelCount]), Array(outputs[levelCount..<(2 * levelCount)])), Array(outputs[(2 * levelCount)...]))
    }

    /// The box branches, then the class branches, of the one-to-many head or (`oneToOne`) the one-to-one head.
    func branches(oneToOne: Bool = false) -> [HeadBranch] {
        let (boxes, scores) = oneToOne ? oneToOneBranches ?? (boxBranches, classBranches) : (boxBranches, classBranches)
        return boxes.enumerated().map { HeadBranch(module: $1, level: $0, mapChannels: boxMapChannels) }
            + scores.enumerated().map { HeadBranch(module: $1, level: $0, mapChannels: classMapChannels[$0]) }
    }

    /// Both heads' parameters when the head is end-to-end (both are loaded).
    var parameterCount: Int {
        let oneToOne = (oneToOneBranches?.boxes ?? []) + (oneToOneBranches?.scores ?? [])
        return (boxBranches + classBranches + oneToOne).reduce(dfl?.parameterCount ?? 0) { $0 + $1.parameterCount }
    }
}
