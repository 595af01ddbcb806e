import YOLOImage
/// Reads a YUV4MPEG2 stream (a `.y4m` file, or standard input for `-`) frame by frame.
///
/// The header is read and validated on `init`; each `read()` then takes one `FRAME` line and
/// the frame's planes (`header.frameByteCount` bytes), and `PendingFrame.decode()` converts them
/// to RGB with `YUVToRGB`, as `ffmpeg -pix_fmt rgb24` would. Errors name the source and the frame.
public final class Y4MReader: FrameSource {
    public let name: String
    package let header: Y4MHeader
    public var frameRate: Double? { header.frameRate }
    private let input: ByteInput
    private let converter: YUVToRGB
    private let parallel: ParallelLoop
    private var nextIndex = 0

    /// Longest header or frame line accepted.
    static let maxLineLength = 4096

    /// Opens `path` (`-` for standard input) and reads its header; frames of more than `maxPixels`
    /// pixels are refused before anything is allocated.
    public convenience init(path: String, maxPixels: Int = 50_000_000) throws(VideoError) {
        try self.init(path: path, maxPixels: maxPixels, parallel: .serial)
    }

    /// The same, converting each frame to RGB on `parallel`'s threads, a band of rows each.
    package init(path: String, maxPixels: Int = 50_000_000, parallel: ParallelLoop) throws(VideoError) {
        let input = try ByteInput(path: path)
        guard let line = try input.readLine(maxLength: Self.maxLineLength, what: "the header") else {
            throw .invalidHeader(source: input.name, reason: "the stream is empty")
        }
        self.input = input
        name = input.name
        header = try Y4MHeader(parsing: line, source: input.name, maxPixels: maxPixels)
        converter = YUVToRGB(range: header.range)
        self.parallel = parallel
    }

    public func read() throws(VideoError) -> PendingFrame? {
        let index = nextIndex
        guard let line = try readFrameLine(index: index) else { return nil }
        guard line.starts(with: Array("FRAME".utf8)), line.count == 5 || line[5] == 0x20 else {
            let shown = String(decoding: line.prefix(16), as: UTF8.self)
            throw .invalidFrame(source: name, frame: index, reason: "expected a FRAME line, found '\(shown)'")
        }
        let expected = header.frameByteCount
        var planes = [UInt8](repeating: 0, count: expected)
        var got = 0
        var failure: VideoError?
        planes.withUnsafeMutableBytes { buffer in
            do throws(VideoError) { got = try input.read(into: buffer) } catch { failure = error }
        }
        if let failure { throw failure }
        guard got == expected else { throw .truncatedFrame(source: name, frame: index, expected: expected, got: got) }
        nextIndex += 1
        let (width, height, chroma, converter, parallel) = (header.width, header.height, header.chroma, self.converter, self.parallel)
        let frozen = planes
        return PendingFrame(index: index, time: Double(index) / header.frameRate) {
            converter.convert(frozen, width: width, height: height, chroma: chroma, parallel: parallel)
        }
    }

    /// A pipe's next bytes are there (read ahead, or waiting to be read); a file's always are.
    public var nextFrameHasArrived: Bool { input.hasArrived }

    private func readFrameLine(index: Int) throws(VideoError) -> [UInt8]? {
        do {
            return try input.readLine(maxLength: Self.maxLineLength, what: "frame \(index)'s FRAME line")
        } catch .invalidHeader(_, let reason) {
            throw .invalidFrame(source: name, frame: index, reason: reason)
        }
    }
}
