import Foundation
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
    private let decoder: ImageDecoder
    private var nextIndex = 0

    /// Lists the images of `directory`.
    /// - Parameter frameRate: frames per second used for `time` (directories carry none).
    public init(directory: String, frameRate: Double, decoder: ImageDecoder = ImageDecoder()) throws(VideoError) {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .unreadable(source: directory, reason: (error as NSError).localizedDescription)
        }
        files = entries.filter { ["png", "jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
            .map { (directory as NSString).appendingPathComponent($0) }
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
