import YOLOFileSystem
import YOLOImage

/// The `.png/.jpg/.jpeg` files of a directory, in name order, as the frames of a video.
///
/// A directory declares no frame rate: times are `index / frameRate` with the rate given at `init`.
/// An image that fails to decode is reported as `VideoError.badImage` for its frame, and reading
/// goes on with the next file.
public final class ImageDirectorySource: FrameSource {
    public let name: String
    public let frameRate: Double?
    /// The frame files, in the order they are read.
    public let files: [String]
    /// Entries named like images that are not regular files (FIFOs, devices, directories), each
    /// with what it is; they are not read.
    public let skipped: [(path: String, kind: String)]
    private let decoder: ImageDecoder
    private var nextIndex = 0

    /// Lists the images of `directory`.
    /// - Parameter frameRate: frames per second used for `time` (directories carry none).
    public init(directory: String, frameRate: Double, decoder: ImageDecoder = ImageDecoder()) throws(VideoError) {
        let entries: [Directory.Entry]
        do throws(FileSystemError) {
            entries = try Directory.entries(of: directory)
        } catch {
            guard case let .unreadable(_, reason) = error else { throw .unreadable(source: directory, reason: "\(error)") }
            throw .unreadable(source: directory, reason: reason)
        }
        let images = entries.filter { ImageFormat.isImageFileName($0.name) }
        // A FIFO or device named like an image would block the read or never end: passed over.
        skipped = images.filter { !$0.isRegularFile }.map { (Directory.appending($0.name, to: directory), $0.otherKind ?? "") }
        files = images.filter(\.isRegularFile).map { Directory.appending($0.name, to: directory) }
        guard !files.isEmpty else { throw .noFrames(source: directory) }
        name = directory
        self.frameRate = frameRate
        self.decoder = decoder
    }

    public func read() throws(VideoError) -> PendingFrame? {
        guard nextIndex < files.count else { return nil }
        let index = nextIndex, file = files[index], decoder = self.decoder, source = name
        nextIndex += 1
        return PendingFrame(index: index, time: Double(index) / (frameRate ?? 1), file: file) { () throws(VideoError) -> RGBImage in
            do throws(ImageError) {
                return try decoder.decode(contentsOf: file)
            } catch {
                throw .badImage(source: source, frame: index, error: error)
            }
        }
    }
}
