import YOLOImage

/// A frame that has been read from its source but not yet converted to RGB, so that frames a
/// sampler passes over cost a read and nothing more.
public struct PendingFrame: Sendable {
    /// 0-based position in the source.
    public let index: Int
    /// Seconds from the start of the source.
    public let time: Double
    /// The file the frame comes from, for directory sources.
    public let file: String?
    private let makeImage: @Sendable () throws(VideoError) -> RGBImage

    /// A frame of a source of your own: `decode` makes its pixels, and runs only if the frame is
    /// processed (a sampler passes over the others); throw `VideoError.badImage` from it for a frame
    /// that cannot be decoded but does not end the stream.
    public init(index: Int, time: Double, file: String? = nil, decode: @escaping @Sendable () throws(VideoError) -> RGBImage) {
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
    public func decode() throws(VideoError) -> VideoFrame {
        VideoFrame(index: index, time: time, image: try makeImage(), file: file)
    }
}
