/// Greedy non-maximum suppression with torchvision's `ops.nms` semantics (which Ultralytics'
/// `non_max_suppression` calls): boxes are visited in descending score order (a stable sort, so
/// equal scores keep their input order); each box not yet suppressed is kept and suppresses every
/// later box whose IoU with it is greater than `iouThreshold`. Arithmetic is float32 like the
/// CPU kernel; the IoU is compared with the threshold in double, as in C++ `float > double`.
///
/// - Parameters:
///   - boxes: corners (x1, y1, x2, y2).
///   - scores: one score per box.
///   - iouThreshold: suppress when IoU > this.
///   - limit: stop once this many boxes are kept (the result is the same prefix).
/// - Returns: indices into `boxes` of the kept boxes, highest score first.
package func nonMaxSuppression(boxes: [BoundingBox], scores: [Float], iouThreshold: Double,
                              limit: Int = .max) -> [Int] {
    precondition(boxes.count == scores.count, "nonMaxSuppression: \(boxes.count) boxes but \(scores.count) scores")
    let n = boxes.count
    guard n > 0, limit > 0 else { return [] }
    let order = stableDescendingOrder(scores)
    var keep: [Int] = []
    var suppressed = [Bool](repeating: false, count: n)
    boxes.withUnsafeBufferPointer { b in
        let areas = b.map { $0.area }
        for oi in 0..<n {
            let i = order[oi]
            if suppressed[i] { continue }
            keep.append(i)
            if keep.count == limit { break }
            let bi = b[i], areaI = areas[i]
            for oj in (oi + 1)..<n {
                let j = order[oj]
                if suppressed[j] { continue }
                let bj = b[j]
                // std::max(a, b) is (a < b) ? b : a, which Swift's max matches for non-NaN values.
                let w = max(Float(0), min(bi.x2, bj.x2) - max(bi.x1, bj.x1))
                let h = max(Float(0), min(bi.y2, bj.y2) - max(bi.y1, bj.y1))
                let inter = w * h
                let iou = inter / (areaI + areas[j] - inter)
                if Double(iou) > iouThreshold { suppressed[j] = true }
            }
        }
    }
    return keep
}

/// Indices of `scores` sorted by descending score; ties keep ascending index order.
func stableDescendingOrder(_ scores: [Float]) -> [Int] {
    Array(scores.indices).sorted { a, b in
        scores[a] != scores[b] ? scores[a] > scores[b] : a < b
    }
}
