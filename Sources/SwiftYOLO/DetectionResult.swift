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

/// Milliseconds spent in each stage of one detection.
public struct StageTimings: Sendable, Equatable, Codable {
    public var decode: Double = 0
    public var preprocess: Double = 0
    public var inference: Double = 0
    public var postprocess: Double = 0

    public init() {}

    public var total: Double { decode + preprocess + inference + postprocess }
}

/// Runs `body` and adds the time it took, in milliseconds, to `milliseconds`.
public func measure<T>(_ milliseconds: inout Double, _ body: () throws -> T) rethrows -> T {
    let clock = ContinuousClock()
    let start = clock.now
    defer { milliseconds += (clock.now - start).milliseconds }
    return try body()
}

extension Duration {
    /// The duration in milliseconds.
    public var milliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }
}
