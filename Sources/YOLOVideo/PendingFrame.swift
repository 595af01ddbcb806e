import YOLOImage

/// A frame that has been read from its source but not yet converted to RGB, so that frames a
/// sampler passes over cost a read and nothing more.
package struct PendingFrame: Sendable {
    /// 0-based position in the source.
    package let index: Int
    /// Seconds from the start of the source.
    package let time: Double
    /// The file the frame comes from, for directory sources.
    package let file: String?
    private let makeImage: @Sendable () throws(VideoError) -> RGBImage

    package init(index: Int, time: Double, file: String? = nil, decode: @escaping @Sendable () throws(VideoError) -> RGBImage) {
        self.index = index
        self.time = time
        self.file = file
        self.makeImage = decode
    }

    /// The same frame timed at `frameRate` frames per second: `index / frameRate`.
    package func retimed(frameRate: Double) -> PendingFrame {
        PendingFrame(index: index, time: Double(index) / frameRate, file: file, decode: makeImage)
    }

    /// Converts (or decodes) the frame.
    package func decode() throws(VideoError) -> VideoFrame {
        VideoFrame(index: index, time: time, image: try makeImage(), file: file)
    }
}
