/// One keypoint of a pose (COCO order for person models: nose, eyes, ears, shoulders, elbows, wrists,
/// hips, knees, ankles), in original-image pixels. Encodes as the JSON array `[x, y, confidence]`.
public struct Keypoint: Sendable, Hashable, Codable {
    public var x: Float
    public var y: Float
    /// The visibility through the sigmoid, in [0, 1]; 1 for a model whose keypoints have no visibility.
    public var confidence: Float

    public init(x: Float, y: Float, confidence: Float) {
        self.x = x
        self.y = y
        self.confidence = confidence
    }

    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        self.init(x: try c.decode(Float.self), y: try c.decode(Float.self), confidence: try c.decode(Float.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(x)
        try c.encode(y)
        try c.encode(confidence)
    }
}
