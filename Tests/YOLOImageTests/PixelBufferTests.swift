import Testing
import YOLOImage

/// `PixelBuffer`: every format, with padded rows, gives the canvas of the same pixels as an
/// `RGBImage` byte for byte, in every resize mode and on odd sizes; malformed buffers are refused.
@Suite struct PixelBufferTests {
    /// A deterministic image with detail in every channel.
    static func image(width: Int, height: Int, seed: UInt64) -> RGBImage {
        var state = seed
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in pixels.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            pixels[i] = UInt8(truncatingIfNeeded: state >> 33)
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// `image` packed in `format` with `padding` extra bytes per row (filled with a marker, so a
    /// read of the padding would show).
    static func packed(_ image: RGBImage, _ format: PixelBuffer.Format, padding: Int) -> (bytes: [UInt8], bytesPerRow: Int) {
        let bpp = format.bytesPerPixel ?? 1
        let bytesPerRow = image.width * bpp + padding
        var bytes = [UInt8](repeating: 0xA5, count: bytesPerRow * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let (r, g, b) = image.pixel(x: x, y: y)
                let o = y * bytesPerRow + x * bpp
                switch format {
                case .rgb8: (bytes[o], bytes[o + 1], bytes[o + 2]) = (r, g, b)
                case .bgr8: (bytes[o], bytes[o + 1], bytes[o + 2]) = (b, g, r)
                case .rgba8: (bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]) = (r, g, b, 7)
                case .bgra8: (bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]) = (b, g, r, 7)
                case .gray8: bytes[o] = r
                case .i420, .nv12: preconditionFailure("not a packed format")
                }
            }
        }
        return (bytes, bytesPerRow)
    }

    static let sizes = [(1, 1), (7, 5), (33, 17), (640, 480), (1_000, 3), (3, 1_000), (160, 160)]

    @Test(arguments: [PixelBuffer.Format.rgb8, .bgr8, .rgba8, .bgra8])
    func packedFormatsGiveTheImagesCanvas(_ format: PixelBuffer.Format) throws {
        for (index, (width, height)) in Self.sizes.enumerated() {
            let image = Self.image(width: width, height: height, seed: UInt64(index))
            let (bytes, bytesPerRow) = Self.packed(image, format, padding: 13)
            for mode in ResizeMode.allCases {
                let preprocessor = Preprocessor(options: PreprocessOptions(imageSize: 96, mode: mode))
                let canvas = try bytes.withUnsafeBytes { raw in
                    preprocessor.canvas(for: try PixelBuffer(format: format, width: width, height: height,
                                                             bytesPerRow: bytesPerRow, bytes: raw)).canvas
                }
                #expect(canvas == preprocessor.canvas(for: image).canvas, "\(format) \(width)×\(height) \(mode)")
            }
        }
    }

    @Test func grayIsReplicatedToRGB() throws {
        for (index, (width, height)) in Self.sizes.enumerated() {
            let noise = Self.image(width: width, height: height, seed: UInt64(100 + index))
            // The red channel as gray, and the RGB image a gray8 buffer of it stands for.
            let gray = RGBImage(width: width, height: height, pixels: noise.pixels.enumerated().map { i, _ in noise.pixels[i - i % 3] })
            let (bytes, bytesPerRow) = Self.packed(noise, .gray8, padding: 5)
            let preprocessor = Preprocessor(options: PreprocessOptions(imageSize: 64))
            let canvas = try bytes.withUnsafeBytes { raw in
                preprocessor.canvas(for: try PixelBuffer(format: .gray8, width: width, height: height,
                                                         bytesPerRow: bytesPerRow, bytes: raw)).canvas
            }
            #expect(canvas == preprocessor.canvas(for: gray).canvas, "gray8 \(width)×\(height)")
        }
    }

    /// I420 and NV12 rows, converted one at a time, give the canvas of the whole frame converted
    /// first by `YUVToRGB` (the video path's conversion), for even and odd sizes and padded planes.
    @Test(arguments: [PixelBuffer.Format.i420, .nv12])
    func yuvRowsGiveTheConvertedFramesCanvas(_ format: PixelBuffer.Format) throws {
        for (index, (width, height)) in Self.sizes.enumerated() {
            let cw = (width + 1) / 2, ch = (height + 1) / 2
            let noise = Self.image(width: width, height: height, seed: UInt64(200 + index)).pixels
            let yPlane = Array(noise[0..<(width * height)])
            let uPlane = Array(noise[(width * height)..<(width * height + cw * ch)])
            let vPlane = Array(noise[(2 * width * height)..<(2 * width * height + cw * ch)])
            // The reference: every row through the 4:2:0 converter, into one RGB frame.
            let converter = YUVToRGB(range: .limited)
            var expected = [UInt8](repeating: 0, count: width * height * 3)
            for y in 0..<height {
                yPlane.withUnsafeBufferPointer { yp in uPlane.withUnsafeBufferPointer { up in vPlane.withUnsafeBufferPointer { vp in
                    expected.withUnsafeMutableBufferPointer { out in
                        converter.convertSubsampledRow(y: yp.baseAddress! + y * width, u: up.baseAddress! + (y / 2) * cw,
                                                       v: vp.baseAddress! + (y / 2) * cw, chromaStep: 1, width: width,
                                                       into: out.baseAddress! + y * width * 3)
                    }
                }}}
            }
            let reference = RGBImage(width: width, height: height, pixels: expected)
            // The buffer, planes padded by 3 bytes a row.
            let yStride = width + 3
            var yBytes = [UInt8](repeating: 0xA5, count: yStride * height)
            for y in 0..<height { for x in 0..<width { yBytes[y * yStride + x] = yPlane[y * width + x] } }
            var chromaPlanes: [(bytes: [UInt8], stride: Int)] = []
            if format == .i420 {
                for plane in [uPlane, vPlane] {
                    var bytes = [UInt8](repeating: 0xA5, count: (cw + 3) * ch)
                    for y in 0..<ch { for x in 0..<cw { bytes[y * (cw + 3) + x] = plane[y * cw + x] } }
                    chromaPlanes.append((bytes, cw + 3))
                }
            } else {
                var bytes = [UInt8](repeating: 0xA5, count: (2 * cw + 3) * ch)
                for y in 0..<ch {
                    for x in 0..<cw {
                        bytes[y * (2 * cw + 3) + 2 * x] = uPlane[y * cw + x]
                        bytes[y * (2 * cw + 3) + 2 * x + 1] = vPlane[y * cw + x]
                    }
                }
                chromaPlanes.append((bytes, 2 * cw + 3))
            }
            let preprocessor = Preprocessor(options: PreprocessOptions(imageSize: 64))
            let canvas = try yBytes.withUnsafeBytes { y in
                try chromaPlanes[0].bytes.withUnsafeBytes { c0 in
                    try (chromaPlanes.last ?? chromaPlanes[0]).bytes.withUnsafeBytes { c1 in
                        var planes = [PixelBuffer.Plane(bytes: y, bytesPerRow: yStride),
                                      PixelBuffer.Plane(bytes: c0, bytesPerRow: chromaPlanes[0].stride)]
                        if format == .i420 { planes.append(PixelBuffer.Plane(bytes: c1, bytesPerRow: chromaPlanes[1].stride)) }
                        return preprocessor.canvas(for: try PixelBuffer(format: format, width: width, height: height, planes: planes)).canvas
                    }
                }
            }
            #expect(canvas == preprocessor.canvas(for: reference).canvas, "\(format) \(width)×\(height)")
        }
    }

    @Test func malformedBuffersAreRefused() {
        let bytes = [UInt8](repeating: 0, count: 100)
        bytes.withUnsafeBytes { raw in
            func refused(_ make: () throws -> PixelBuffer) -> Bool {
                do { _ = try make(); return false } catch {
                    if case .invalidPixelBuffer? = error as? ImageError { return true }
                    return false
                }
            }
            #expect(refused { try PixelBuffer(format: .rgb8, width: 0, height: 5, bytesPerRow: 0, bytes: raw) })
            #expect(refused { try PixelBuffer(format: .rgb8, width: 5, height: -1, bytesPerRow: 15, bytes: raw) })
            // Stride shorter than a row.
            #expect(refused { try PixelBuffer(format: .bgra8, width: 5, height: 2, bytesPerRow: 19, bytes: raw) })
            // Too few bytes: 5 rows of 20 need 100, 6 rows need 120.
            #expect(!refused { try PixelBuffer(format: .bgra8, width: 5, height: 5, bytesPerRow: 20, bytes: raw) })
            #expect(refused { try PixelBuffer(format: .bgra8, width: 5, height: 6, bytesPerRow: 20, bytes: raw) })
            // The last row need not be padded.
            #expect(!refused { try PixelBuffer(format: .gray8, width: 10, height: 2, bytesPerRow: 90, bytes: raw) })
            // Wrong plane counts.
            #expect(refused { try PixelBuffer(format: .i420, width: 4, height: 4, bytesPerRow: 4, bytes: raw) })
            #expect(refused { try PixelBuffer(format: .nv12, width: 4, height: 4, planes: [.init(bytes: raw, bytesPerRow: 4)]) })
            // A chroma plane too short for its rows (odd sizes round up: 3×3 luma has 2×2 chroma).
            let y = UnsafeRawBufferPointer(rebasing: raw[0..<9]), uv = UnsafeRawBufferPointer(rebasing: raw[9..<15])
            #expect(refused { try PixelBuffer(format: .nv12, width: 3, height: 3, planes: [.init(bytes: y, bytesPerRow: 3), .init(bytes: uv, bytesPerRow: 4)]) })
            #expect(refused { try PixelBuffer(format: .nv12, width: 3, height: 3, planes: [.init(bytes: y, bytesPerRow: 3), .init(bytes: y, bytesPerRow: 2)]) })
            let wholeUV = UnsafeRawBufferPointer(rebasing: raw[9..<17])
            #expect(!refused { try PixelBuffer(format: .nv12, width: 3, height: 3, planes: [.init(bytes: y, bytesPerRow: 3), .init(bytes: wholeUV, bytesPerRow: 4)]) })
            // Strides whose product overflows.
            #expect(refused { try PixelBuffer(format: .rgb8, width: 1, height: Int.max / 2, bytesPerRow: Int.max / 2, bytes: raw) })
            #expect(refused { try PixelBuffer(format: .rgb8, width: Int.max / 2, height: 1, bytesPerRow: 3, bytes: raw) })
        }
    }
}
