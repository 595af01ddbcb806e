import YOLOImage

/// One decoded frame of a video source: its position in the source and its pixels.
public struct VideoFrame: Sendable {
    /// 0-based position in the source (counting every frame, processed or not).
    public let index: Int
    /// Seconds from the start of the source: `index / frameRate`.
    public let time: Double
    /// The frame's pixels.
    public let image: RGBImage
    /// The file the frame came from, for directory sources.
    public let file: String?

    /// A frame by its parts.
    public init(index: Int, time: Double, image: RGBImage, file: String? = nil) {
        self.index = index
        self.time = time
        self.image = image
        self.file = file
    }
}
