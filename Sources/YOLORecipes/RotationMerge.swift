import YOLODetect

/// Merges the detections of several rotation passes into one list with non-maximum suppression
/// (YOLODetect's `nonMaxSuppression`, torchvision's rule): per class unless `agnostic`, the best
/// box of a place wins whichever pass found it, and equal scores keep the pass order given.
package enum RotationMerge {
    /// - Parameters:
    ///   - passes: each pass's rotation and its detections, boxes already mapped to the original image.
    ///   - iouThreshold: a box overlapping a better one by more than this is dropped (`--iou`).
    ///   - agnostic: one box per place whatever its class.
    ///   - maxDetections: keep at most this many, best first.
    /// - Returns: the kept detections, best first.
    package static func merge(_ passes: [(rotation: Rotation, detections: [Detection])], iouThreshold: Double,
                             agnostic: Bool, maxDetections: Int) -> [RotatedDetection] {
        let all = passes.flatMap { pass in pass.detections.map { RotatedDetection(detection: $0, rotation: pass.rotation) } }
        var groups: [Int: [Int]] = [:]  // class (or one group if agnostic) → indices into `all`
        for (i, item) in all.enumerated() { groups[agnostic ? 0 : item.detection.classId, default: []].append(i) }
        var kept: [Int] = []
        for members in groups.values {
            let keep = nonMaxSuppression(boxes: members.map { all[$0].detection.box }, scores: members.map { all[$0].detection.confidence },
                                         iouThreshold: iouThreshold)
            kept += keep.map { members[$0] }
        }
        // Best first; equal scores in input order (pass order, then each pass's own order).
        kept.sort { a, b in
            let sa = all[a].detection.confidence, sb = all[b].detection.confidence
            return sa != sb ? sa > sb : a < b
        }
        return kept.prefix(max(0, maxDetections)).map { all[$0] }
    }
}
