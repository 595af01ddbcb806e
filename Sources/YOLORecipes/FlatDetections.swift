import YOLODetect

/// Detections as one flat array of `[class, score, xmin, xmax, ymin, ymax]` per detection, the
/// layout cross-platform native detectors hand across a language boundary (`--format array`).
public enum FlatDetections {
    /// Numbers per detection.
    public static let stride = 6

    /// `[class, score, xmin, xmax, ymin, ymax, class, score, …]`, in the order given.
    public static func flatten(_ detections: [Detection]) -> [Float] {
        detections.flatMap { d in [Float(d.classId), d.confidence, d.box.x1, d.box.x2, d.box.y1, d.box.y2] }
    }

    /// The detections back from a flat array (labels empty); `nil` if its length is not a multiple of
    /// 6 or a class is not a whole number from 0 (the array may come from across a language boundary).
    public static func unflatten(_ values: [Float]) -> [Detection]? {
        guard values.count % stride == 0 else { return nil }
        var detections: [Detection] = []
        for i in Swift.stride(from: 0, to: values.count, by: Self.stride) {
            guard let classId = Int(exactly: values[i]), classId >= 0 else { return nil }
            detections.append(Detection(classId: classId, label: "", confidence: values[i + 1],
                                        box: BoundingBox(x1: values[i + 2], y1: values[i + 4], x2: values[i + 3], y2: values[i + 5])))
        }
        return detections
    }
}
