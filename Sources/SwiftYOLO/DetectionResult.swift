import YOLODetect

/// What one image gave: its detections (boxes in original-image pixels) and where the time went.
public struct DetectionResult: Sendable, Equatable, Codable {
    /// The objects found, most confident first.
    public let detections: [Detection]
    /// The image as decoded (after EXIF orientation).
    public let imageWidth: Int
    public let imageHeight: Int
    /// The model input it was fitted to.
    public let inputWidth: Int
    public let inputHeight: Int
    /// Decode, preprocess, inference and postprocess, each as it took.
    public let timings: StageTimings

    /// - Precondition: no size is negative, and `imageWidth · imageHeight` is an `Int`.
    public init(detections: [Detection], imageWidth: Int, imageHeight: Int, inputWidth: Int, inputHeight: Int,
                timings: StageTimings) {
        precondition(Self.sizeProblem(imageWidth: imageWidth, imageHeight: imageHeight, inputWidth: inputWidth,
                                      inputHeight: inputHeight, maximumPixels: .max) == nil,
                     "DetectionResult of a \(imageWidth)×\(imageHeight) image, input \(inputWidth)×\(inputHeight)")
        self.detections = detections
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.timings = timings
    }

    /// The same result with each detection's `face` estimated from its keypoints (`Face`); detections
    /// without keypoints (a detection or segmentation model's) get none.
    public func addingFaces() -> DetectionResult {
        let detections = detections.map { detection in
            var detection = detection
            detection.face = detection.keypoints.flatMap { Face(keypoints: $0, imageWidth: imageWidth, imageHeight: imageHeight) }
            return detection
        }
        return DetectionResult(detections: detections, imageWidth: imageWidth, imageHeight: imageHeight,
                               inputWidth: inputWidth, inputHeight: inputHeight, timings: timings)
    }

    /// What is wrong with these sizes for an image of at most `maximumPixels` pixels, or `nil`.
    private static func sizeProblem(imageWidth: Int, imageHeight: Int, inputWidth: Int, inputHeight: Int, maximumPixels: Int) -> String? {
        guard imageWidth >= 0, imageHeight >= 0, inputWidth >= 0, inputHeight >= 0 else { return "a size is negative" }
        let (pixels, overflow) = imageWidth.multipliedReportingOverflow(by: imageHeight)
        guard !overflow, pixels <= maximumPixels else { return "the image is over \(maximumPixels) pixels" }
        return nil
    }

    private enum CodingKeys: String, CodingKey {
        case detections, imageWidth, imageHeight, inputWidth, inputHeight, timings
    }

    /// Decodes a result, refusing negative sizes and images of over `InstanceMask.maximumPixels` pixels
    /// (a gigapixel, the masks' limit), whose `foregroundMask()` no one could hold. Each mask is
    /// held over its bounding region, a byte a pixel: a few bytes of JSON may ask for a gigabyte, so
    /// check the sizes first where the JSON comes from someone you do not trust.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let (imageWidth, imageHeight) = (try container.decode(Int.self, forKey: .imageWidth), try container.decode(Int.self, forKey: .imageHeight))
        let (inputWidth, inputHeight) = (try container.decode(Int.self, forKey: .inputWidth), try container.decode(Int.self, forKey: .inputHeight))
        if let problem = Self.sizeProblem(imageWidth: imageWidth, imageHeight: imageHeight, inputWidth: inputWidth, inputHeight: inputHeight,
                                          maximumPixels: InstanceMask.maximumPixels) {
            throw DecodingError.dataCorruptedError(forKey: .imageWidth, in: container,
                                                   debugDescription: "image \(imageWidth)×\(imageHeight), input \(inputWidth)×\(inputHeight): \(problem)")
        }
        self.init(detections: try container.decode([Detection].self, forKey: .detections), imageWidth: imageWidth, imageHeight: imageHeight,
                  inputWidth: inputWidth, inputHeight: inputHeight, timings: try container.decode(StageTimings.self, forKey: .timings))
    }
}
