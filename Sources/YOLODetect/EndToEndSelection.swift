/// Ultralytics' end-to-end post-processing (`predict(nms=False)` on a model with a one-to-one head,
/// YOLO26): `Detect.get_topk_index` then the end-to-end branch of `non_max_suppression`. No NMS.
///
/// The one-to-one head output is `[4 + nc, A]` row-major with boxes as `x1, y1, x2, y2`. Steps, as
/// Ultralytics 8.4.190 does them for a `.pt` model (whose predictor raises the head's `max_det` to at
/// least 300 so that the class filter sees candidates before truncation):
/// 1. `k = min(max(maxDetections, 300), A)`;
/// 2. the `k` anchors with the highest best-class score; among their `k · nc` (anchor, class) scores,
///    the `k` highest (one anchor may give several classes), best first. With `agnostic`: the `k`
///    anchors with the highest best-class score, each with its best class (first maximum);
/// 3. keep `score > conf`, then the class filter, then the first `maxDetections`.
///
/// Only scores above `conf` can survive step 3, so the selection ranks only those: the result is
/// the same, and the work grows with the candidates rather than with `A · nc`.
package struct EndToEndSelection: Sendable {
    package var options: PostprocessOptions
    /// Names for `Detection.label`; ids without a name are labelled with the number.
    package var labels: LabelMap?

    /// The head's own `max_det` floor for `.pt` models in Ultralytics' predictor.
    package static let minimumTopK = 300

    package init(options: PostprocessOptions = PostprocessOptions(), labels: LabelMap? = nil) {
        self.options = options
        self.labels = labels
    }

    /// Detections from the one-to-one head output, best first, each with the anchor it came from.
    /// - Parameters:
    ///   - head: `(4 + classCount + extraRows) × anchorCount` floats, layout `[4 + nc + extras, A]`,
    ///     boxes as corners in model-input pixels.
    package func selections(head: UnsafeBufferPointer<Float>, classCount: Int, extraRows: Int = 0, anchorCount: Int)
        throws(DetectError) -> [(detection: Detection, anchor: Int)]
    {
        let a = anchorCount, nc = classCount
        guard nc > 0, a >= 0, extraRows >= 0, head.count == (4 + nc + extraRows) * a else {
            throw .invalidHeadShape(count: head.count, classCount: nc, anchorCount: anchorCount)
        }
        let conf = options.confidenceThreshold
        let k = min(max(options.maxDetections, Self.minimumTopK), a)
        guard k > 0, options.maxDetections > 0 else { return [] }

        // Best class per anchor (first maximum, as `max(dim=-1)`); a NaN score makes the anchor's
        // maximum NaN, which ranks it above every number in torch's topk and fails `> conf`.
        let classes = BestClasses(head: head, classCount: nc, anchorCount: a)
        let (best, bestClass, sawNaN) = (classes.score, classes.classId, classes.sawNaN)
        // Step 2's anchors: the top k by best score. Anchors whose best score is not above conf give no
        // candidate; a NaN anchor takes a place among the k without giving one.
        let nanAnchors = sawNaN.reduce(0) { $0 + ($1 ? 1 : 0) }
        var ranked = (0..<a).filter { !sawNaN[$0] && best[$0] > conf }  // ascending anchors
        let places = max(k - nanAnchors, 0)
        if ranked.count > places {
            // The places-th best score; of the anchors tied at it, the lowest indices take the places left.
            let threshold = places > 0 ? ranked.map { best[$0] }.largest(rank: places) : .infinity
            let above = ranked.filter { best[$0] > threshold }
            ranked = above + ranked.lazy.filter { best[$0] == threshold }.prefix(places - above.count)
        }

        // (anchor, class) candidates above conf among those anchors, the best k of them. When k anchors
        // are ranked, each has a pair at or above the lowest of their best scores, so the best k pairs
        // all are: the others need not be ranked.
        let floor = ranked.count >= k ? ranked.lazy.map { best[$0] }.min() ?? -.infinity : -.infinity
        var candidates: [(anchor: Int, classId: Int, score: Float)] = []
        if options.agnostic {
            candidates = ranked.map { ($0, bestClass[$0], best[$0]) }
        } else {
            for anchor in ranked {
                for c in 0..<nc {
                    let s = head[(4 + c) * a + anchor]
                    if s > conf && s >= floor { candidates.append((anchor, c, s)) }
                }
            }
        }
        // Ties: the lower anchor, then the lower class, first (torch's order for equal scores is not specified).
        candidates.sort { $0.score != $1.score ? $0.score > $1.score : ($0.anchor, $0.classId) < ($1.anchor, $1.classId) }
        if candidates.count > k { candidates.removeLast(candidates.count - k) }
        if let keep = options.classes { candidates.removeAll { !keep.contains($0.classId) } }
        return candidates.prefix(options.maxDetections).map { candidate in
            let anchor = candidate.anchor
            let box = BoundingBox(x1: head[anchor], y1: head[a + anchor], x2: head[2 * a + anchor], y2: head[3 * a + anchor])
            let label = labels?.name(for: candidate.classId) ?? String(candidate.classId)
            return (Detection(classId: candidate.classId, label: label, confidence: candidate.score, box: box), anchor)
        }
    }

    /// Detections from the one-to-one head output held in an array (see `selections`).
    package func detections(head: [Float], classCount: Int, anchorCount: Int) throws(DetectError) -> [Detection] {
        let result = head.withUnsafeBufferPointer { buffer in
            Result { () throws(DetectError) in
                try selections(head: buffer, classCount: classCount, anchorCount: anchorCount).map(\.detection)
            }
        }
        return try result.get()
    }
}
