import YOLODetect

/// What one image gave: its detections (boxes in original-image pixels) and where the time went.
public struct DetectionResult: Sendable, Equatable, Codable {
    public let detections: [Detection]
    /// The image as decoded (after EXIF orientation).
    public let imageWidth: Int
    public let imageHeight: Int
    /// The model input it was fitted to.
    public let inputWidth: Int
    public let inputHeight: Int
    public let timings: StageTimings

    public init(detections: [Detection], imageWidth: Int, imageHeight: Int, inputWidth: Int, inputHeight: Int,
                timings: StageTimings) {
        self.detections = detections
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.timings = timings
    }
}
