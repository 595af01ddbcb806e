/// One object's mask at original-image size. Only the region of its box is stored (outside it the
/// mask is empty, as Ultralytics crops every mask to its box), so holding masks costs what the
/// objects cover, not images. Encodes as COCO compressed RLE `{"size": [H, W], "counts": STRING}`.
///
/// Two masks are equal when they cover the same pixels of images of the same size, however much of
/// each is stored: a mask from the model keeps its box, one decoded from RLE the bounding box of its
/// pixels.
public struct InstanceMask: Sendable, Hashable {
    public let imageWidth: Int
    public let imageHeight: Int
    /// The stored region, in image pixels: the mask is empty outside it.
    public let regionX: Int
    public let regionY: Int
    public let regionWidth: Int
    public let regionHeight: Int
    /// 1 inside the object, 0 outside: `regionWidth · regionHeight` values, row-major.
    public let regionBits: [UInt8]

    package init(imageWidth: Int, imageHeight: Int, regionX: Int, regionY: Int, regionWidth: Int, regionHeight: Int, regionBits: [UInt8]) {
        precondition(regionX >= 0 && regionY >= 0 && regionWidth >= 0 && regionHeight >= 0
                     && regionX + regionWidth <= imageWidth && regionY + regionHeight <= imageHeight
                     && regionBits.count == regionWidth * regionHeight, "mask region outside a \(imageWidth)×\(imageHeight) image")
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.regionX = regionX
        self.regionY = regionY
        self.regionWidth = regionWidth
        self.regionHeight = regionHeight
        self.regionBits = regionBits
    }

    /// The largest image a mask read from RLE may cover (a gigapixel).
    public static let maximumPixels = 1 << 30

    /// Whether pixel `(x, y)` of the image belongs to the object.
    public func contains(x: Int, y: Int) -> Bool {
        let rx = x - regionX, ry = y - regionY
        guard rx >= 0, ry >= 0, rx < regionWidth, ry < regionHeight else { return false }
        return regionBits[ry * regionWidth + rx] != 0
    }

    /// The object's pixels.
    public var area: Int { regionBits.reduce(0) { $0 + Int($1) } }

    /// The whole image's bitmap, `imageWidth · imageHeight` values row-major: 1 inside the object.
    public func bitmap() -> [UInt8] {
        var bitmap = [UInt8](repeating: 0, count: imageWidth * imageHeight)
        for y in 0..<regionHeight {
            let row = (regionY + y) * imageWidth + regionX
            for x in 0..<regionWidth where regionBits[y * regionWidth + x] != 0 { bitmap[row + x] = 1 }
        }
        return bitmap
    }

    /// COCO's uncompressed counts: alternating runs of 0 and 1 over the image in column-major
    /// order, starting with 0s.
    public var runLengthCounts: [Int] {
        var counts: [Int] = []
        var value: UInt8 = 0, run = 0
        func add(_ bit: UInt8, _ length: Int) {
            guard length > 0 else { return }
            if bit == value {
                run += length
            } else {
                counts.append(run)
                value = bit
                run = length
            }
        }
        for x in 0..<imageWidth {
            guard x >= regionX, x < regionX + regionWidth else { add(0, imageHeight); continue }
            add(0, regionY)
            for y in 0..<regionHeight { add(regionBits[y * regionWidth + x - regionX], 1) }
            add(0, imageHeight - regionY - regionHeight)
        }
        counts.append(run)
        return counts
    }

    /// COCO compressed RLE, the `counts` string pycocotools reads.
    public var cocoCounts: String { COCORunLength.string(runLengthCounts) }

    /// The mask of a COCO compressed RLE string over an image of `width × height` (at most
    /// `maximumPixels`); `nil` if the string is malformed or its counts do not cover the image exactly.
    public init?(cocoCounts: String, width: Int, height: Int) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width >= 0, height >= 0, !overflow, pixels <= Self.maximumPixels, let counts = COCORunLength.counts(cocoCounts),
              counts.allSatisfy({ $0 <= pixels }), counts.reduce(0, +) == pixels else { return nil }
        var bitmap = [UInt8](repeating: 0, count: width * height)
        var position = 0
        for (i, count) in counts.enumerated() {
            if i % 2 == 1 {
                for p in position..<(position + count) { bitmap[(p % max(height, 1)) * width + p / max(height, 1)] = 1 }
            }
            position += count
        }
        self.init(bitmap: bitmap, width: width, height: height)
    }

    /// The mask of a whole-image bitmap (nonzero: inside), stored over its set pixels' bounding box.
    ///
    /// - Precondition: `bitmap` has `width · height` values.
    public init(bitmap: [UInt8], width: Int, height: Int) {
        precondition(bitmap.count == width * height, "\(bitmap.count) values for a \(width)×\(height) bitmap")
        var x0 = width, y0 = height, x1 = -1, y1 = -1
        for y in 0..<height {
            for x in 0..<width where bitmap[y * width + x] != 0 {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        guard x1 >= 0 else {
            self.init(imageWidth: width, imageHeight: height, regionX: 0, regionY: 0, regionWidth: 0, regionHeight: 0, regionBits: [])
            return
        }
        let w = x1 - x0 + 1, h = y1 - y0 + 1
        var bits = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w where bitmap[(y0 + y) * width + x0 + x] != 0 { bits[y * w + x] = 1 } }
        self.init(imageWidth: width, imageHeight: height, regionX: x0, regionY: y0, regionWidth: w, regionHeight: h, regionBits: bits)
    }
}

extension InstanceMask {
    /// The bounding box of the set pixels, in image pixels (`x`, `y` its first column and row), or
    /// `nil` for an empty mask.
    private var occupied: (x: Int, y: Int, width: Int, height: Int)? {
        var x0 = regionWidth, y0 = regionHeight, x1 = -1, y1 = -1
        for y in 0..<regionHeight {
            for x in 0..<regionWidth where regionBits[y * regionWidth + x] != 0 {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        return x1 < 0 ? nil : (regionX + x0, regionY + y0, x1 - x0 + 1, y1 - y0 + 1)
    }

    /// Whether the two masks cover the same pixels of images of the same size.
    public static func == (a: InstanceMask, b: InstanceMask) -> Bool {
        guard a.imageWidth == b.imageWidth, a.imageHeight == b.imageHeight else { return false }
        let (boxA, boxB) = (a.occupied, b.occupied)
        guard let box = boxA, let other = boxB else { return boxA == nil && boxB == nil }
        guard box == other else { return false }
        for y in box.y..<(box.y + box.height) {
            for x in box.x..<(box.x + box.width) where a.contains(x: x, y: y) != b.contains(x: x, y: y) { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(imageWidth)
        hasher.combine(imageHeight)
        if let box = occupied {
            hasher.combine(box.x)
            hasher.combine(box.y)
            hasher.combine(box.width)
            hasher.combine(box.height)
        }
        hasher.combine(area)
    }
}

extension InstanceMask: Codable {
    enum CodingKeys: String, CodingKey { case size, counts }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let size = try container.decode([Int].self, forKey: .size)
        let counts = try container.decode(String.self, forKey: .counts)
        guard size.count == 2, let mask = InstanceMask(cocoCounts: counts, width: size[1], height: size[0]) else {
            throw DecodingError.dataCorruptedError(forKey: .counts, in: container, debugDescription: "not a COCO RLE of a \(size) mask")
        }
        self = mask
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode([imageHeight, imageWidth], forKey: .size)
        try container.encode(cocoCounts, forKey: .counts)
    }
}
