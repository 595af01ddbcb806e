import YOLOKernels

/// What the model's head produced for one input.
package struct HeadOutput: Sendable {
    /// `[1, 4 + nc + extras, anchors]`: decoded boxes (xywh, input pixels), class scores, then the
    /// rows of `HeadExtras`.
    package let predictions: Tensor
    /// Segment's mask prototypes `[1, nm, H/4, W/4]`; `nil` for the other heads.
    package let prototypes: Tensor?
}

/// The rows a head adds after the box and class rows of its output, per anchor.
package enum HeadExtras: Sendable, Equatable {
    /// Detect: nothing.
    case none
    /// Segment: the mask coefficients, one per prototype.
    case maskCoefficients(count: Int)
    /// Pose: `count` keypoints of `dimensions` values (x, y in input pixels, then the visibility
    /// through the sigmoid when `dimensions` is 3), keypoint-major: `x0, y0, v0, x1, …`.
    case keypoints(count: Int, dimensions: Int)

    package var rowCount: Int {
        switch self {
        case .none: 0
        case let .maskCoefficients(count): count
        case let .keypoints(count, dimensions): count * dimensions
        }
    }
}

/// A head on the model's last layer: Ultralytics' `Detect`, or a head that composes it as
/// `Segment(Detect)` and `Pose(Detect)` do (its box and class branches, anchors and strides).
/// Adding a head is one type conforming to this and one entry in `LayerBuilders.table`.
protocol DetectionHead: Sendable {
    /// The box and class branches.
    var detect: Detect { get }
    var extras: HeadExtras { get }
    /// Decodes the levels' feature maps (strides `detect.strides`, finest first).
    func run(_ levels: [Tensor]) -> HeadOutput
    /// FLOPs of the branches for the levels' sizes.
    func flops(_ sizes: [(Int, Int)]) -> Int
    /// Branches beyond Detect's, which run with them (Segment's coefficients and prototypes, Pose's keypoints).
    var extraBranches: [HeadBranch] { get }
    /// The extra branches whose per-level maps follow the class logits in Ultralytics' raw predictions
    /// (Segment's mask coefficients, Pose's keypoints; not Proto).
    var rawMapBranches: [HeadBranch] { get }
    /// Bytes the head holds beyond its inputs and its predictions for the levels' sizes (the branches
    /// running side by side, Segment's prototype maps), for the memory plan.
    func scratchBytes(_ sizes: [(Int, Int)]) -> Int
    var parameterCount: Int { get }
}

extension DetectionHead {
    var extraBranches: [HeadBranch] { [] }

    var rawMapBranches: [HeadBranch] { [] }

    /// The per-level maps before decoding, as Ultralytics' raw predictions (`golden.py`'s
    /// `model.<L>.raw.<i>`): box and class logits, then (the one-to-many head's) `rawMapBranches`' maps;
    /// with `oneToOne`, the one-to-one branches' box and class logits.
    func rawMaps(_ levels: [Tensor], oneToOne: Bool = false) -> [Tensor] {
        let branches = oneToOne ? [] : rawMapBranches
        let (raw, extra) = detect.rawOutputs(levels, oneToOne: oneToOne, besides: branches)
        return levels.indices.map { level in
            let extraMaps = zip(branches, extra).filter { $0.0.level == level }.map(\.1)
            return FeatureMap(concatenating: [raw.boxes[level], raw.scores[level]] + extraMaps).tensor
        }
    }

    func scratchBytes(_ sizes: [(Int, Int)]) -> Int { branchScratchBytes(sizes) }

    /// Detect's (one-to-many) and the extra branches' FLOPs for the levels' sizes (the DFL decode is not counted).
    func flops(_ sizes: [(Int, Int)]) -> Int {
        HeadBranch.flops(detect.branches() + extraBranches, sizes: sizes).reduce(0, +)
    }

    /// What Detect's and the extra branches hold beyond one branch's maps (`HeadBranch.scratchBytes`).
    func branchScratchBytes(_ sizes: [(Int, Int)]) -> Int {
        HeadBranch.scratchBytes(detect.branches() + extraBranches, sizes: sizes, threads: ComputeThreads.count)
    }
}

extension Detect: DetectionHead {
    var detect: Detect { self }
    var extras: HeadExtras { .none }
    func run(_ levels: [Tensor]) -> HeadOutput { HeadOutput(predictions: self(levels), prototypes: nil) }
}

extension DetectionHead {
    /// `[1, 4 + nc + extras, anchors]`: Detect's decoded output `[1, 4 + nc, anchors]` with the
    /// per-level rows `extraRows` (each `[1, extras, H, W]`) written after it, level by level.
    func predictions(_ detected: Tensor, extraRows: [Tensor]) -> Tensor {
        let anchorCount = detected.shape[2], detectRows = detected.shape[1]
        let output = Tensor(uninitializedShape: [1, detectRows + extras.rowCount, anchorCount])
        output.data.update(from: detected.data, count: detected.count)
        var firstAnchor = 0
        for rows in extraRows {
            let (channels, height, width) = rows.chw
            let planeSize = height * width
            for channel in 0..<channels {
                (output.data + (detectRows + channel) * anchorCount + firstAnchor).update(from: rows.data + channel * planeSize, count: planeSize)
            }
            firstAnchor += planeSize
        }
        return output
    }
}
