import YOLODetect

/// Intersection over union of two boxes (0 when they do not overlap or both are empty).
package func intersectionOverUnion(_ a: BoundingBox, _ b: BoundingBox) -> Float {
    let w = max(0, min(a.x2, b.x2) - max(a.x1, b.x1))
    let h = max(0, min(a.y2, b.y2) - max(a.y1, b.y1))
    let intersection = w * h
    let union = max(0, a.width) * max(0, a.height) + max(0, b.width) * max(0, b.height) - intersection
    return union > 0 ? intersection / union : 0
}
