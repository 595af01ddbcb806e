/// A face found from a person's five head keypoints (COCO order: nose, left eye, right eye, left ear,
/// right ear), for checks such as "one face looking at the camera". Encodes as
/// `{"box": [X1, Y1, X2, Y2], "frontal": BOOL}`.
///
/// The rule, using only keypoints of confidence ≥ 0.5:
/// - **box**: needs two head keypoints. The face's width is 2.2 × the distance between the eyes when
///   both are seen (the eyes are about 0.45 of a face's width apart), at least 1.1 × the distance
///   between the ears when both are seen, and otherwise 1.6 × the widest horizontal span of the head
///   keypoints (a profile). Its height is 1.25 × its width; it is centred horizontally on the head
///   keypoints and vertically 0.1 of its height below their mean (the eyes and ears sit above the
///   middle of a face). Clipped to the image.
/// - **frontal**: the nose and both eyes are seen, the nose lies between the eyes horizontally and
///   below their line, and within 0.25 × the eye distance of the eyes' midpoint horizontally.
public struct Face: Sendable, Hashable, Codable {
    public var box: BoundingBox
    public var frontal: Bool

    public init(box: BoundingBox, frontal: Bool) {
        self.box = box
        self.frontal = frontal
    }

    /// Keypoints at or above this confidence count as seen.
    public static let keypointThreshold: Float = 0.5

    /// The face of a person's keypoints (the first five are the head's), or `nil` if fewer than two
    /// head keypoints are seen.
    public init?(keypoints: [Keypoint], imageWidth: Int, imageHeight: Int) {
        guard keypoints.count >= 5 else { return nil }
        func seen(_ k: Int) -> Keypoint? { keypoints[k].confidence >= Self.keypointThreshold ? keypoints[k] : nil }
        let head = (0..<5).compactMap(seen)
        guard head.count >= 2 else { return nil }
        let (nose, leftEye, rightEye, leftEar, rightEar) = (seen(0), seen(1), seen(2), seen(3), seen(4))
        let left = head.reduce(Float.infinity) { min($0, $1.x) }, right = head.reduce(-Float.infinity) { max($0, $1.x) }
        var width = 1.6 * (right - left)
        var eyeDistance: Float?
        if let leftEye, let rightEye {
            let distance = ((leftEye.x - rightEye.x) * (leftEye.x - rightEye.x) + (leftEye.y - rightEye.y) * (leftEye.y - rightEye.y)).squareRoot()
            eyeDistance = distance
            width = 2.2 * distance
        }
        if let leftEar, let rightEar { width = max(width, 1.1 * abs(leftEar.x - rightEar.x)) }
        guard width > 0, width.isFinite else { return nil }
        let height = 1.25 * width
        let centerX = (left + right) / 2
        let centerY = head.map(\.y).reduce(0, +) / Float(head.count) + 0.1 * height
        func clip(_ v: Float, _ upper: Int) -> Float { min(max(v, 0), Float(upper)) }
        box = BoundingBox(x1: clip(centerX - width / 2, imageWidth), y1: clip(centerY - height / 2, imageHeight),
                          x2: clip(centerX + width / 2, imageWidth), y2: clip(centerY + height / 2, imageHeight))
        if let nose, let leftEye, let rightEye, let eyeDistance {
            let (low, high) = (min(leftEye.x, rightEye.x), max(leftEye.x, rightEye.x))
            let middle = (leftEye.x + rightEye.x) / 2, eyeLine = (leftEye.y + rightEye.y) / 2
            frontal = nose.x > low && nose.x < high && nose.y > eyeLine && abs(nose.x - middle) <= 0.25 * eyeDistance
        } else {
            frontal = false
        }
    }
}
