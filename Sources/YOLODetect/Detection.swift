/// An axis-aligned box by its corners, in pixels: (x1, y1) top-left, (x2, y2) bottom-right.
/// Encodes as the JSON array `[x1, y1, x2, y2]`.
public struct BoundingBox: Sendable, Hashable, Codable {
    public var x1: Float
    public var y1: Float
    public var x2: Float
    public var y2: Float

    public init(x1: Float, y1: Float, x2: Float, y2: Float) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// From centre and size (Ultralytics `xywh2xyxy`, in float32: corners are centre ∓ size / 2).
    public init(centerX: Float, centerY: Float, width: Float, height: Float) {
        let halfW = width / 2, halfH = height / 2
        self.init(x1: centerX - halfW, y1: centerY - halfH, x2: centerX + halfW, y2: centerY + halfH)
    }

    public var width: Float { x2 - x1 }
    public var height: Float { y2 - y1 }
    /// `(x2 - x1) * (y2 - y1)`, as torchvision computes it (negative for inverted boxes).
    public var area: Float { (x2 - x1) * (y2 - y1) }

    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        self.init(x1: try c.decode(Float.self), y1: try c.decode(Float.self),
                  x2: try c.decode(Float.self), y2: try c.decode(Float.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(x1)
        try c.encode(y1)
        try c.encode(x2)
        try c.encode(y2)
    }
}

/// One detected object. Encodes as the CLI's JSON object
/// `{"class": ID, "label": NAME, "confidence": C, "box": [X1, Y1, X2, Y2]}`.
public struct Detection: Sendable, Hashable, Codable {
    /// The class's index in the model's class list (COCO's 0 `person`, 5 `bus`, … for the COCO models).
    public var classId: Int
    /// The class's name: the model's, or the detector's `labels`.
    public var label: String
    /// The class score, in [0, 1]: the sigmoid of the model's logit.
    public var confidence: Float
    /// The object's box in the pixels of the image as given (after its EXIF orientation), clipped
    /// to the image as Ultralytics' `scale_boxes` does.
    public var box: BoundingBox
    /// The object's mask at original-image size, from a segmentation model.
    public var mask: InstanceMask?
    /// The object's keypoints in original-image pixels, from a pose model.
    public var keypoints: [Keypoint]?
    /// The face estimated from a person's head keypoints: `nil` until `Face(keypoints:imageWidth:imageHeight:)`
    /// or `DetectionResult.addingFaces()` sets it (`swift-yolo detect --faces` does).
    public var face: Face?

    public init(classId: Int, label: String, confidence: Float, box: BoundingBox, mask: InstanceMask? = nil, keypoints: [Keypoint]? = nil) {
        self.classId = classId
        self.label = label
        self.confidence = confidence
        self.box = box
        self.mask = mask
        self.keypoints = keypoints
    }

    /// The same detection with its box transformed (e.g. by `PreprocessGeometry.mapToOriginal`).
    package func mapped(_ transform: (BoundingBox) -> BoundingBox) -> Detection {
        var copy = self
        copy.box = transform(box)
        return copy
    }

    enum CodingKeys: String, CodingKey {
        case classId = "class"
        case label
        case confidence
        case box
        case mask
        case keypoints
        case face
    }
}
