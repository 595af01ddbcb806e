/// A sequence of frames read in order: a YUV4MPEG2 stream (`Y4MReader`) or a directory of images
/// (`ImageDirectorySource`).
public protocol FrameSource: AnyObject {
    /// The name used in output and errors (a path, or `stdin`).
    var name: String { get }
    /// The frame rate the source declares, if it declares one.
    var frameRate: Double? { get }
    /// Reads the next frame without converting it; `nil` at the end of the source.
    func read() throws(VideoError) -> PendingFrame?
    /// Whether reading the next frame (or learning that there is none) needs no wait for it to
    /// arrive. Realtime sampling drops only frames that have arrived, so a live source slower than
    /// the rate it declares loses none. A source whose frames are all at hand (a file, a directory)
    /// answers `true`, the default.
    var nextFrameHasArrived: Bool { get }
}

extension FrameSource {
    public var nextFrameHasArrived: Bool { true }
}
