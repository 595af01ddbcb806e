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
    /// Per level, the widest map inside a box branch and inside a class branch (channels).
    let boxMapChannels: [Int]
    let classMapChannels: [Int]

    init(_ weights: WeightScope, classCount: Int, inputChannels: [Int], strides: [Int], bins: Int = 16, endToEnd: Bool = false) throws {
        self.classCount = classCount
        self.bins = bins
        self.strides = strides
        let boxChannels = max(16, inputChannels[0] / 4, bins * 4)
        let classChannels = max(inputChannels[0], min(classCount, 100))
        boxMapChannels = inputChannels.map { _ in boxChannels }
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
        precondition(levels.count == boxBranches.count, "Detect takes \(boxBranches.count) levels, got \(levels.count)")
        precondition(!oneToOne || oneToOneBranches != nil, "this Detect head has no one-to-one branches")
        let (boxes, scores) = oneToOne ? oneToOneBranches ?? (boxBranches, classBranches) : (boxBranches, classBranches)
        let outputs = Self.run(boxes + scores, on: levels + levels)
        return (Array(outputs[..<boxes.count]), Array(outputs[boxes.count...]))
    }

    /// Each branch on its input. The branches are independent, so where the threads can share them
    /// out evenly (`runsBranchesSideBySide`) they run side by side, each on one thread, the costliest
    /// first: their layers are small (YOLO11n's run on 80 × 80 maps at most), and split across the
    /// threads layer by layer they keep the threads waiting for each other. Otherwise one after the
    /// other, each layer on every thread. The results are the same either way.
    private static func run(_ branches: [Sequential], on inputs: [Tensor]) -> [Tensor] {
        let costs = zip(branches, inputs).map { branch, input in branch.flops((input.chw.height, input.chw.width)) }
        guard runsBranchesSideBySide(costs: costs, threads: ComputeThreads.count) else {
            return zip(branches, inputs).map { $0($1) }
        }
        let order = branches.indices.sorted { costs[$0] > costs[$1] }
        var outputs = [Tensor?](repeating: nil, count: branches.count)
        outputs.withUnsafeMutableBufferPointer { outputs in
            ComputeThreads.parallelFor(order.count) { k in
                let branch = order[k]
                outputs[branch] = branches[branch](inputs[branch])
            }
        }
        return outputs.map { $0! }
    }

    /// Whether branches of these costs run side by side on `threads` threads: when there are several
    /// threads and the costliest branch is at most `unevenShare` of an even share of the total (YOLO11n
    /// at 640 on two threads: the stride-8 box branch is 53% of the head's FLOPs, so 1.07 of a half).
    private static func runsBranchesSideBySide(costs: [Int], threads: Int) -> Bool {
        threads > 1 && Double(costs.max() ?? 0) <= unevenShare * Double(costs.reduce(0, +)) / Double(threads)
    }

    /// How far over an even share of the work the costliest branch may be for the branches to run side by side.
    private static let unevenShare = 1.1

    /// For the memory plan: the maps of the branches running beside the first when they run side by
    /// side (each thread's branch holds two maps of its width at a time), for the levels' sizes.
    func branchScratchBytes(_ sizes: [(Int, Int)]) -> Int {
        let costs = zip(boxBranches, sizes).map { $0.flops($1) } + zip(classBranches, sizes).map { $0.flops($1) }
        let threads = ComputeThreads.count
        guard Self.runsBranchesSideBySide(costs: costs, threads: threads) else { return 0 }
        let maps = (zip(boxMapChannels, sizes).map { $0 * $1.0 * $1.1 } + zip(classMapChannels, sizes).map { $0 * $1.0 * $1.1 })
            .sorted(by: >)
        return maps.prefix(min(threads, maps.count)).dropFirst().reduce(0) { $0 + 2 * $1 } * MemoryLayout<Float>.stride
    }

    /// FLOPs of the branches for the levels' sizes (the DFL decode is not counted).
    func flops(_ sizes: [(Int, Int)]) -> Int {
        zip(sizes, zip(boxBranches, classBranches)).reduce(0) { $0 + $1.1.0.flops($1.0) + $1.1.1.flops($1.0) }
    }

    /// Both heads' parameters when the head is end-to-end (both are loaded).
    var parameterCount: Int {
        let oneToOne = (oneToOneBranches?.boxes ?? []) + (oneToOneBranches?.scores ?? [])
        return (boxBranches + classBranches + oneToOne).reduce(dfl?.parameterCount ?? 0) { $0 + $1.parameterCount }
    }
}
