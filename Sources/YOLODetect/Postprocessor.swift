/// Settings for turning head output into detections; defaults are `YOLO(model).predict()`'s.
package struct PostprocessOptions: Sendable, Equatable {
    /// Keep anchors whose best class score is greater than this (`conf`, compared in float32
    /// like torch compares a float tensor with a Python float).
    package var confidenceThreshold: Float
    /// Suppress boxes whose IoU with a better box is greater than this (`iou`).
    package var iouThreshold: Double
    /// Only these class ids (`classes`); `nil` keeps all.
    package var classes: Set<Int>?
    /// One NMS over all classes instead of one per class (`agnostic_nms`).
    package var agnostic: Bool
    /// Keep at most this many detections (`max_det`).
    package var maxDetections: Int
    /// Before NMS, keep only this many best-scoring candidates (`max_nms`).
    package var maxCandidates: Int
    /// Per-class coordinate offset that keeps classes apart in one NMS call (`max_wh`).
    package var classOffset: Float

    package init(confidenceThreshold: Float = 0.25, iouThreshold: Double = 0.7, classes: Set<Int>? = nil,
                agnostic: Bool = false, maxDetections: Int = 300, maxCandidates: Int = 30_000,
                classOffset: Float = 7680) {
        self.confidenceThreshold = confidenceThreshold
        self.iouThreshold = iouThreshold
        self.classes = classes
        self.agnostic = agnostic
        self.maxDetections = maxDetections
        self.maxCandidates = maxCandidates
        self.classOffset = classOffset
    }
}

/// Ultralytics' `non_max_suppression` for detection heads (single label per box, no extra
/// channels), reproducing its order and ties.
///
/// The head output is `[4 + nc, A]` row-major: rows cx, cy, w, h, then one score row per class;
/// each row holds the A anchors contiguously. Steps: best class per anchor (first maximum wins),
/// keep `score > conf`, xywh → xyxy, class filter, cap at `maxCandidates` by score, offset boxes
/// by `class × classOffset` (unless agnostic), NMS, cap at `maxDetections`. Boxes stay in
/// model-input pixels.
package struct Postprocessor: Sendable {
    package var options: PostprocessOptions
    /// Names for `Detection.label`; ids without a name are labelled with the number.
    package var labels: LabelMap?

    package init(options: PostprocessOptions = PostprocessOptions(), labels: LabelMap? = nil) {
        self.options = options
        self.labels = labels
    }

    /// Detections from the raw head output, best first.
    /// - Parameters:
    ///   - head: `(4 + classCount) × anchorCount` floats, layout `[4 + nc, A]`.
    package func detections(head: UnsafeBufferPointer<Float>, classCount: Int, anchorCount: Int)
        throws(DetectError) -> [Detection]
    {
        try selections(head: head, classCount: classCount, extraRows: 0, anchorCount: anchorCount).map(\.detection)
    }

    /// Detections from a head output with `extraRows` rows after the class scores (Segment's mask
    /// coefficients, Pose's keypoints), best first, each with the anchor it came from so that its
    /// extra values (`head[(4 + nc + row) · A + anchor]`) can be read.
    /// - Parameters:
    ///   - head: `(4 + classCount + extraRows) × anchorCount` floats, layout `[4 + nc + extras, A]`.
    package func selections(head: UnsafeBufferPointer<Float>, classCount: Int, extraRows: Int, anchorCount: Int)
        throws(DetectError) -> [(detection: Detection, anchor: Int)]
    {
        let a = anchorCount, nc = classCount
        guard nc > 0, a >= 0, extraRows >= 0, head.count == (4 + nc + extraRows) * a else {
            throw .invalidHeadShape(count: head.count, classCount: nc, anchorCount: anchorCount)
        }
        let conf = options.confidenceThreshold
        // Best class per anchor, walking the score rows in memory order: [nc, A] -> [A].
        // cls.max(1) keeps the first maximum; a NaN score makes amax NaN, which fails `> conf`.
        let classes = BestClasses(head: head, classCount: nc, anchorCount: a)
        let (best, bestClass, sawNaN) = (classes.score, classes.classId, classes.sawNaN)
        var boxes: [BoundingBox] = []
        var scores: [Float] = []
        var classIds: [Int] = []
        var anchors: [Int] = []
        for anchor in 0..<a where !sawNaN[anchor] && best[anchor] > conf {
            if let keep = options.classes, !keep.contains(bestClass[anchor]) { continue }
            boxes.append(BoundingBox(centerX: head[anchor], centerY: head[a + anchor],
                                     width: head[2 * a + anchor], height: head[3 * a + anchor]))
            scores.append(best[anchor])
            classIds.append(bestClass[anchor])
            anchors.append(anchor)
        }
        if boxes.count > options.maxCandidates {
            let top = stableDescendingOrder(scores).prefix(max(options.maxCandidates, 0)).sorted()
            boxes = top.map { boxes[$0] }
            scores = top.map { scores[$0] }
            classIds = top.map { classIds[$0] }
            anchors = top.map { anchors[$0] }
        }
        // Class-aware NMS in one pass: boxes shifted by class * max_wh (in float32) never overlap.
        let offsetBoxes = options.agnostic ? boxes : zip(boxes, classIds).map { box, c in
            let o = Float(c) * options.classOffset
            return BoundingBox(x1: box.x1 + o, y1: box.y1 + o, x2: box.x2 + o, y2: box.y2 + o)
        }
        let keep = nonMaxSuppression(boxes: offsetBoxes, scores: scores, iouThreshold: options.iouThreshold,
                                     limit: max(options.maxDetections, 0))
        return keep.map { i in
            (Detection(classId: classIds[i], label: labels?.name(for: classIds[i]) ?? String(classIds[i]),
                       confidence: scores[i], box: boxes[i]), anchors[i])
        }
    }

    /// Detections from the raw head output held in an array (see the buffer variant).
    package func detections(head: [Float], classCount: Int, anchorCount: Int) throws(DetectError) -> [Detection] {
        let result = head.withUnsafeBufferPointer { buffer in
            Result { () throws(DetectError) in
                try detections(head: buffer, classCount: classCount, anchorCount: anchorCount)
            }
        }
        return try result.get()
    }
}
