import YOLOImage
/// The stream header of a YUV4MPEG2 file: `YUV4MPEG2 W<w> H<h> F<n>:<d> I<i> A<n>:<d> C<c> X<…>`.
///
/// Mirrors what ffmpeg's `yuv4mpegpipe` demuxer accepts: `W` and `H` are required, the frame rate
/// defaults to 25 fps, the chroma layout to 4:2:0 (jpeg siting), and unknown tags are ignored.
/// Only 8-bit 4:2:0 and 4:4:4 are supported; `XCOLORRANGE=FULL` selects full-range codes.
package struct Y4MHeader: Sendable, Equatable {
    package static let magic = "YUV4MPEG2"

    package var width: Int
    package var height: Int
    /// Frames per second as a fraction (`F30000:1001` is 29.97 fps).
    package var frameRateNumerator: Int
    package var frameRateDenominator: Int
    /// The `I` tag as written (`p` progressive, `t`/`b` field order, `m` mixed); informational.
    package var interlacing: String
    package var chroma: Y4MChroma
    package var range: YUVRange

    package init(width: Int, height: Int, frameRateNumerator: Int = 25, frameRateDenominator: Int = 1,
                interlacing: String = "p", chroma: Y4MChroma = .c420jpeg, range: YUVRange = .limited) {
        self.width = width
        self.height = height
        self.frameRateNumerator = frameRateNumerator
        self.frameRateDenominator = frameRateDenominator
        self.interlacing = interlacing
        self.chroma = chroma
        self.range = range
    }

    /// Frames per second.
    package var frameRate: Double { Double(frameRateNumerator) / Double(frameRateDenominator) }

    /// Bytes of one frame's planes (Y, then Cb, then Cr), not counting its `FRAME` line.
    package var frameByteCount: Int {
        let c = chroma.chromaSize(width: width, height: height)
        return width * height + 2 * c.width * c.height
    }

    /// The header line as ffmpeg writes it, without the newline.
    package var line: String {
        "\(Self.magic) W\(width) H\(height) F\(frameRateNumerator):\(frameRateDenominator) I\(interlacing) A1:1 C\(chroma.rawValue) XCOLORRANGE=\(range.rawValue)"
    }

    /// Parses a header line (without its newline).
    ///
    /// - Parameters:
    ///   - source: the stream's name for errors.
    ///   - maxPixels: frames with more pixels are refused before anything is allocated.
    package init(parsing line: [UInt8], source: String, maxPixels: Int) throws(VideoError) {
        let text = String(decoding: line, as: UTF8.self)
        var fields = text.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = fields.first, first == Self.magic else {
            // A picture given for a video: say so, and what `video` reads instead. (A PNG's signature
            // holds a newline, so its first line is only the signature's first five bytes.)
            if let format = line.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? .png : ImageFormat.detect(line) {
                throw .invalidHeader(source: source, reason: "it is a \(format.rawValue) image; give a directory of frames, "
                                     + "or a video through ffmpeg (-f yuv4mpegpipe)")
            }
            let shown = text.prefix(16).unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? String($0) : "?" }.joined()
            throw .invalidHeader(source: source, reason: "it starts with '\(shown)', not '\(Self.magic)'")
        }
        fields.removeFirst()
        var width: Int?, height: Int?
        var numerator = 25, denominator = 1
        var interlacing = "p"
        var chroma = Y4MChroma.c420jpeg
        var range = YUVRange.limited
        for field in fields {
            let tag = field.first, value = String(field.dropFirst())
            switch tag {
            case "W":
                guard let w = Int(value), w > 0 else { throw .invalidHeader(source: source, reason: "width '\(value)' is not a positive integer") }
                width = w
            case "H":
                guard let h = Int(value), h > 0 else { throw .invalidHeader(source: source, reason: "height '\(value)' is not a positive integer") }
                height = h
            case "F":
                let parts = value.split(separator: ":")
                guard parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]), n >= 0, d >= 0 else {
                    throw .invalidHeader(source: source, reason: "frame rate '\(value)' is not N:D")
                }
                // ffmpeg falls back to 25 fps for 0:0 and other degenerate rates.
                if n > 0 && d > 0 { (numerator, denominator) = (n, d) }
            case "I":
                interlacing = value
            case "C":
                guard let parsed = Y4MChroma(tag: value) else {
                    throw .unsupported(source: source, reason: "colour space C\(value) (supported: 420jpeg, 420paldv, 420mpeg2, 420, 444, all 8-bit)")
                }
                chroma = parsed
            case "X":
                // As ffmpeg: a value starting FULL or LIMITED sets the range; any other is ignored
                // (unspecified, which ffmpeg converts as limited).
                if value.hasPrefix("COLORRANGE=") {
                    let given = value.dropFirst("COLORRANGE=".count)
                    if let parsed = YUVRange.allCases.first(where: { given.hasPrefix($0.rawValue) }) { range = parsed }
                }
            default:
                continue  // A (aspect) and tags this reader has no use for
            }
        }
        guard let width else { throw .invalidHeader(source: source, reason: "no width (W) tag") }
        guard let height else { throw .invalidHeader(source: source, reason: "no height (H) tag") }
        guard width <= maxPixels / height else {
            throw .tooLarge(source: source, width: width, height: height, limit: maxPixels)
        }
        self.init(width: width, height: height, frameRateNumerator: numerator, frameRateDenominator: denominator,
                  interlacing: interlacing, chroma: chroma, range: range)
    }
}
