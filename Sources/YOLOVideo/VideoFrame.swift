import YOLOImage

/// One decoded frame of a video source: its position in the source and its pixels.
package struct VideoFrame: Sendable {
    /// 0-based position in the source (counting every frame, processed or not).
    package let index: Int
    /// Seconds from the start of the source: `index / frameRate`.
    package let time: Double
    package let image: RGBImage
    /// The file the frame came from, for directory sources.
    package let file: String?

    package init(index: Int, time: Double, image: RGBImage, file: String? = nil) {
        self.index = index
        self.time = time
        self.image = image
        self.file = file
    }
}
