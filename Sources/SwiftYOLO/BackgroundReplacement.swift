import YOLODetect
import YOLOImage

/// What replaces the pixels outside the chosen objects.
public enum BackgroundReplacement: Sendable, Equatable {
    /// A solid colour.
    case color(red: UInt8, green: UInt8, blue: UInt8)
    /// Transparency: the result has an alpha channel, 0 outside the objects, where the colour is
    /// black too (so that a tool that drops the alpha shows no trace of what was removed).
    case transparent
    /// Another picture, stretched to the image's size.
    case image(RGBImage)

    /// White, as a product photo's background.
    public static let white = BackgroundReplacement.color(red: 255, green: 255, blue: 255)
}

/// An image with its background replaced: interleaved RGB, or RGBA for `.transparent`.
public struct BackgroundReplaced: Sendable, Equatable {
    /// The image's size, in pixels.
    public let width: Int
    public let height: Int
    /// 3 (RGB) or 4 (RGBA) bytes per pixel, rows top to bottom.
    public let channels: Int
    public let pixels: [UInt8]
    /// The segmentation the cut followed.
    public let result: DetectionResult
}

extension DetectionResult {
    /// The union of the masks of the detections whose class is in `classes` (all when `nil`), as one
    /// value per image pixel, row-major: 1 inside, 0 outside.
    public func foregroundMask(classes: Set<Int>? = nil) -> [UInt8] {
        var union = [UInt8](repeating: 0, count: imageWidth * imageHeight)
        for detection in detections where classes?.contains(detection.classId) ?? true {
            guard let mask = detection.mask, mask.imageWidth == imageWidth, mask.imageHeight == imageHeight else { continue }
            for y in 0..<mask.regionHeight {
                let row = (mask.regionY + y) * imageWidth + mask.regionX
                for x in 0..<mask.regionWidth where mask.regionBits[y * mask.regionWidth + x] != 0 { union[row + x] = 1 }
            }
        }
        return union
    }

    /// One value per image pixel, row-major: the 1-based index of the detection whose mask covers it
    /// (the first, most confident, on top; indices past 255 are 255), 0 for the background.
    public func instanceMap() -> [UInt8] {
        var map = [UInt8](repeating: 0, count: imageWidth * imageHeight)
        for (index, detection) in detections.enumerated().reversed() {
            guard let mask = detection.mask, mask.imageWidth == imageWidth, mask.imageHeight == imageHeight else { continue }
            let value = UInt8(min(index + 1, 255))
            for y in 0..<mask.regionHeight {
                let row = (mask.regionY + y) * imageWidth + mask.regionX
                for x in 0..<mask.regionWidth where mask.regionBits[y * mask.regionWidth + x] != 0 { map[row + x] = value }
            }
        }
        return map
    }
}

extension Detector {
    /// Segments `image` and replaces every pixel outside the union of the masks of `classes` (all
    /// classes when `nil`) by `replacement`.
    ///
    /// - Parameters:
    ///   - image: the picture to cut out.
    ///   - replacement: what goes behind the kept objects: a colour, transparency or another picture.
    ///   - classes: the class ids whose objects are kept; `nil` keeps every detected object.
    ///   - feather: the soft edge's width in pixels: the mask's edge is blurred by a box filter of
    ///     radius `feather` (run twice, close to a Gaussian) and used as the blend weight; 0 for a
    ///     hard cut.
    ///   - options: the detection options of this call (default: the detector's).
    ///   - decodeTime: reported as the result's decode stage (the caller decoded `image`).
    /// - Throws: `DetectorError.invalidOptions` for a model that is not a segmentation model, a class
    ///   id it does not have, or a `feather` outside 0…1024.
    public func replaceBackground(of image: RGBImage, with replacement: BackgroundReplacement, classes: Set<Int>? = nil,
                                  feather: Int = 0, options: DetectionOptions? = nil,
                                  decodeTime: Duration = .zero) throws -> BackgroundReplaced {
        guard model.task == .segment else {
            throw DetectorError.invalidOptions(reason: "background replacement needs a segmentation model; \(model.file) is a '\(model.task.rawValue)' model")
        }
        guard (0...1024).contains(feather) else { throw DetectorError.invalidOptions(reason: "feather \(feather) is outside 0…1024 pixels") }
        if let classes, let bad = classes.first(where: { !(0..<model.classCount).contains($0) }) {
            throw DetectorError.invalidOptions(reason: "class id \(bad) is outside 0..<\(model.classCount)")
        }
        let result = try run(image, options: options, decodeTime: decodeTime)
        let (width, height) = (image.width, image.height)
        var weights = result.foregroundMask(classes: classes).map(Float.init)
        if feather > 0 {
            for _ in 0..<2 { weights = Self.boxBlur(weights, width: width, height: height, radius: feather) }
        }
        let background: RGBImage? = if case let .image(picture) = replacement {
            BilinearResize.resize(picture, width: width, height: height, kernels: .active)  // the CPU's loops: the same bytes
        } else {
            nil
        }
        let channels = replacement == .transparent ? 4 : 3
        let behind: [UInt8] = switch replacement {
        case let .color(red, green, blue): [red, green, blue]
        default: []
        }
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        pixels.withUnsafeMutableBufferPointer { out in
            image.pixels.withUnsafeBufferPointer { source in
                background?.pixels.withUnsafeBufferPointer { picture in
                    Self.composite(source, weights: weights, channels: channels, solid: behind, picture: picture, into: out)
                } ?? Self.composite(source, weights: weights, channels: channels, solid: behind, picture: nil, into: out)
            }
        }
        return BackgroundReplaced(width: width, height: height, channels: channels, pixels: pixels, result: result)
    }

    /// `out = α · source + (1 − α) · behind` per pixel (RGB), `behind` the solid colour or the
    /// picture's pixel; with 4 channels the source is kept and α becomes the alpha channel.
    static func composite(_ source: UnsafeBufferPointer<UInt8>, weights: [Float], channels: Int, solid: [UInt8],
                          picture: UnsafeBufferPointer<UInt8>?, into out: UnsafeMutableBufferPointer<UInt8>) {
        weights.withUnsafeBufferPointer { weights in
            for i in 0..<weights.count {
                let alpha = weights[i]
                if channels == 4 {
                    let opacity = UInt8((alpha * 255).rounded())
                    for c in 0..<3 { out[i * 4 + c] = opacity == 0 ? 0 : source[i * 3 + c] }
                    out[i * 4 + 3] = opacity
                    continue
                }
                for c in 0..<3 {
                    let back = picture.map { $0[i * 3 + c] } ?? solid[c]
                    out[i * 3 + c] = alpha >= 1 ? source[i * 3 + c] : alpha <= 0 ? back
                        : UInt8((alpha * Float(source[i * 3 + c]) + (1 - alpha) * Float(back)).rounded())
                }
            }
        }
    }

    /// `replaceBackground(of:with:classes:feather:options:decodeTime:)` on the pixels of a camera frame or other
    /// caller memory (any `PixelBuffer` format; the result is RGB or RGBA).
    public func replaceBackground(in buffer: PixelBuffer, with replacement: BackgroundReplacement, classes: Set<Int>? = nil,
                                  feather: Int = 0, options: DetectionOptions? = nil) throws -> BackgroundReplaced {
        let width = buffer.width
        var pixels = [UInt8](repeating: 0, count: width * buffer.height * 3)
        var scratch = [UInt8](repeating: 0, count: width * 3)
        scratch.withUnsafeMutableBufferPointer { scratch in
            pixels.withUnsafeMutableBufferPointer { pixels in
                guard let scratchBase = scratch.baseAddress, let target = pixels.baseAddress else { return }
                for y in 0..<buffer.height {
                    (target + y * width * 3).update(from: buffer.rgbRow(y, scratch: scratchBase), count: width * 3)
                }
            }
        }
        return try replaceBackground(of: RGBImage(width: width, height: buffer.height, pixels: pixels), with: replacement,
                                     classes: classes, feather: feather, options: options)
    }

    /// A box filter of radius `radius` over a `width × height` plane (edges clamped), rows then columns.
    static func boxBlur(_ plane: [Float], width: Int, height: Int, radius: Int) -> [Float] {
        func pass(_ input: [Float], count: Int, lines: Int, index: (Int, Int) -> Int) -> [Float] {
            var output = input
            let span = Float(2 * radius + 1)
            for line in 0..<lines {
                var sum: Float = 0
                for k in -radius...radius { sum += input[index(line, min(max(k, 0), count - 1))] }
                for p in 0..<count {
                    output[index(line, p)] = sum / span
                    sum += input[index(line, min(p + radius + 1, count - 1))] - input[index(line, max(p - radius, 0))]
                }
            }
            return output
        }
        let rows = pass(plane, count: width, lines: height) { y, x in y * width + x }
        return pass(rows, count: height, lines: width) { x, y in y * width + x }
    }
}
