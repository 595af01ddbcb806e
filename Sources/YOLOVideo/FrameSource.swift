/// A sequence of frames read in order: a YUV4MPEG2 stream (`Y4MReader`) or a directory of images
/// (`ImageDirectorySource`).
public protocol FrameSource: AnyObject {
    /// The name used in output and errors (a path, or `stdin`).
    var name: String { get }
    /// The frame rate the source declares, if it declares one.
    var frameRate: Double? { get }
    /// Reads the next frame without converting it; `nil` at the end of the source.
    func read() throws(VideoError) -> PendingFrame?
}
