/// An image in memory that you own, laid out as a camera, a video decoder or a graphics API hands
/// it out: a pixel format, a size, and one to three planes, each with its own row stride.
///
/// A view, not a copy: detection reads the rows straight from your memory while it resizes, so the
/// memory must stay valid for the call. Make the buffer inside the closure that lends the bytes:
///
/// ```swift
/// let detections = try frame.withUnsafeBytes { bytes in
///     try detector.detect(in: PixelBuffer(format: .bgra8, width: 1280, height: 720,
///                                         bytesPerRow: 5_120, bytes: bytes))
/// }
/// ```
///
/// YUV formats are 8-bit BT.601 limited range (video's usual encoding), converted exactly as
/// `swift-yolo video` and ffmpeg's `-pix_fmt rgb24` convert them; chroma is 4:2:0, each sample
/// covering its 2×2 block of luma.
public struct PixelBuffer {
    /// How the pixels are laid out.
    public enum Format: String, Sendable, CaseIterable {
        /// Packed 8-bit red, green, blue.
        case rgb8
        /// Packed 8-bit blue, green, red (OpenCV's order).
        case bgr8
        /// Packed 8-bit red, green, blue, alpha; alpha is ignored.
        case rgba8
        /// Packed 8-bit blue, green, red, alpha (V4L2 and most GPUs); alpha is ignored.
        case bgra8
        /// 8-bit luma only.
        case gray8
        /// Planar YUV 4:2:0: a Y plane, then U (Cb) and V (Cr) planes at half width and height.
        case i420
        /// Semi-planar YUV 4:2:0: a Y plane, then one plane of interleaved U, V pairs at half height.
        case nv12

        /// Bytes per pixel of a packed format; `nil` for the planar ones.
        public var bytesPerPixel: Int? {
            switch self {
            case .rgb8, .bgr8: 3
            case .rgba8, .bgra8: 4
            case .gray8: 1
            case .i420, .nv12: nil
            }
        }

        /// How many planes the format has.
        public var planeCount: Int {
            switch self {
            case .rgb8, .bgr8, .rgba8, .bgra8, .gray8: 1
            case .nv12: 2
            case .i420: 3
            }
        }
    }

    /// One plane: its bytes and the distance in bytes from one row to the next (at least the
    /// row's own length; more when rows are padded for alignment).
    public struct Plane {
        /// The plane's bytes, read in place (the caller keeps them alive while the buffer is in use).
        public let bytes: UnsafeRawBufferPointer
        /// The distance from one row's start to the next, in bytes.
        public let bytesPerRow: Int

        public init(bytes: UnsafeRawBufferPointer, bytesPerRow: Int) {
            self.bytes = bytes
            self.bytesPerRow = bytesPerRow
        }
    }

    /// How the pixels are laid out.
    public let format: Format
    /// The image's size, in pixels.
    public let width: Int
    public let height: Int
    /// The planes in the format's order (Y, U, V; or Y, UV; or the one packed plane).
    public let planes: [Plane]
    /// The planes' first bytes (checked non-nil at init).
    private let bases: [UnsafePointer<UInt8>]

    /// A buffer of one of the packed formats (RGB8, BGR8, RGBA8, BGRA8, gray8).
    /// - Throws: `ImageError.invalidPixelBuffer` if the format is planar, the size is not positive,
    ///   or `bytes` is too short for `height` rows of `bytesPerRow`.
    public init(format: Format, width: Int, height: Int, bytesPerRow: Int, bytes: UnsafeRawBufferPointer) throws(ImageError) {
        try self.init(format: format, width: width, height: height, planes: [Plane(bytes: bytes, bytesPerRow: bytesPerRow)])
    }

    /// A buffer of any format, from its planes in the format's order.
    /// - Throws: `ImageError.invalidPixelBuffer` if the size is not positive, the number of planes
    ///   is not the format's, or a plane's stride or length is too small for its rows.
    public init(format: Format, width: Int, height: Int, planes: [Plane]) throws(ImageError) {
        guard width > 0, height > 0 else {
            throw .invalidPixelBuffer(reason: "size \(width)×\(height) is not positive")
        }
        guard planes.count == format.planeCount else {
            throw .invalidPixelBuffer(reason: "\(format.rawValue) has \(format.planeCount) plane(s), got \(planes.count)")
        }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        // (bytes of one row, rows) per plane.
        let shapes: [(rowBytes: Int, rows: Int)] = switch format {
        case .i420: [(width, height), (chromaWidth, chromaHeight), (chromaWidth, chromaHeight)]
        case .nv12: [(width, height), (2 * chromaWidth, chromaHeight)]
        case .rgb8, .bgr8, .rgba8, .bgra8, .gray8: [(width, height)]
        }
        var bases: [UnsafePointer<UInt8>] = []
        let planeNames = format.planeCount == 1 ? ["pixels"] : format == .nv12 ? ["Y", "UV"] : ["Y", "U", "V"]
        for (index, plane) in planes.enumerated() {
            let (pixelsPerRow, rows) = shapes[index]
            let (rowBytes, rowOverflow) = pixelsPerRow.multipliedReportingOverflow(by: format.bytesPerPixel ?? 1)
            guard !rowOverflow, plane.bytesPerRow >= rowBytes else {
                throw .invalidPixelBuffer(reason: "\(planeNames[index]) plane: \(plane.bytesPerRow) bytes per row, "
                                          + "\(format.rawValue) \(width)×\(height) needs at least \(pixelsPerRow) × \(format.bytesPerPixel ?? 1)")
            }
            let (stride, strideOverflow) = (rows - 1).multipliedReportingOverflow(by: plane.bytesPerRow)
            let (needed, neededOverflow) = stride.addingReportingOverflow(rowBytes)
            guard !strideOverflow, !neededOverflow, plane.bytes.count >= needed, let base = plane.bytes.baseAddress else {
                throw .invalidPixelBuffer(reason: "\(planeNames[index]) plane holds \(plane.bytes.count) bytes; "
                                          + "\(rows) rows of \(plane.bytesPerRow) bytes need \(needed)")
            }
            bases.append(base.assumingMemoryBound(to: UInt8.self))
        }
        self.init(format: format, width: width, height: height, planes: planes, bases: bases)
    }

    /// The pixels of an `RGBImage`, as a buffer (the image's memory must outlive it: use inside
    /// `image.pixels.withUnsafeBytes`).
    /// - Precondition: `bytes` are the image's pixels.
    package static func rgb(_ image: RGBImage, bytes: UnsafeRawBufferPointer) -> PixelBuffer {
        // An RGBImage holds exactly width × height × 3 bytes (positive sides), so none of init's checks can fail.
        guard let base = bytes.baseAddress, bytes.count == image.pixels.count else {
            preconditionFailure("PixelBuffer.rgb: \(bytes.count) bytes are not the pixels of a \(image.width)×\(image.height) image")
        }
        return PixelBuffer(format: .rgb8, width: image.width, height: image.height,
                           planes: [Plane(bytes: bytes, bytesPerRow: image.width * 3)],
                           bases: [base.assumingMemoryBound(to: UInt8.self)])
    }

    private init(format: Format, width: Int, height: Int, planes: [Plane], bases: [UnsafePointer<UInt8>]) {
        self.format = format
        self.width = width
        self.height = height
        self.planes = planes
        self.bases = bases
    }

    /// The YUV converter of every YUV buffer (its tables are built once).
    private static let yuv = YUVToRGB(range: .limited)

    /// Row `y` as `width` packed RGB pixels: a pointer into the buffer itself for RGB8, else the
    /// row converted into `scratch` (`width × 3` bytes).
    package func rgbRow(_ y: Int, scratch: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        precondition(y >= 0 && y < height, "row \(y) outside 0..<\(height)")
        func row(_ plane: Int, _ index: Int) -> UnsafePointer<UInt8> { bases[plane] + index * planes[plane].bytesPerRow }
        let source = row(0, y)
        switch format {
        case .rgb8:
            return source
        case .bgr8, .bgra8, .rgba8:
            let step = format == .bgr8 ? 3 : 4
            let (red, blue) = format == .rgba8 ? (0, 2) : (2, 0)
            for x in 0..<width {
                let p = source + step * x, o = scratch + 3 * x
                o[0] = p[red]
                o[1] = p[1]
                o[2] = p[blue]
            }
        case .gray8:
            for x in 0..<width {
                let value = source[x]
                scratch[3 * x] = value
                scratch[3 * x + 1] = value
                scratch[3 * x + 2] = value
            }
        case .i420:
            Self.yuv.convertSubsampledRow(y: source, u: row(1, y >> 1), v: row(2, y >> 1), chromaStep: 1,
                                          width: width, into: scratch)
        case .nv12:
            let uv = row(1, y >> 1)
            Self.yuv.convertSubsampledRow(y: source, u: uv, v: uv + 1, chromaStep: 2, width: width, into: scratch)
        }
        return UnsafePointer(scratch)
    }
}
