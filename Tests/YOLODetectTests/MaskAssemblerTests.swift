import Testing
import TestSupport
import YOLODetect

/// `MaskAssembler` (only the pixels of each box) against its naive twin, which follows
/// `process_mask_native` over whole maps: logits of every prototype cell, the whole upsampled map,
/// the crop, the whole image-sized resize, the threshold, then the box. The two must agree bit for bit.
@Suite struct MaskAssemblerTests {
    /// The naive twin: a `[imageHeight, imageWidth]` bitmap.
    static func reference(_ assembler: MaskAssembler, prototypes: [Float], coefficients: [Float], box: BoundingBox) -> [UInt8] {
        let mh = assembler.protoHeight, mw = assembler.protoWidth, w = assembler.imageWidth, h = assembler.imageHeight
        var logits = [Float](repeating: 0, count: mh * mw)
        for k in coefficients.indices { for i in 0..<(mh * mw) { logits[i] += coefficients[k] * prototypes[k * mh * mw + i] } }
        let f = assembler.factor
        var (map, mapHeight, mapWidth) = (logits, mh, mw)
        if f > 1 {
            map = MaskAssembler.resample(logits, width: mw, rowOffset: 0, columnOffset: 0,
                                         rows: MaskAssembler.samples(0...(f * mh - 1), scale: 1 / Float(f), inputSize: mh),
                                         columns: MaskAssembler.samples(0...(f * mw - 1), scale: 1 / Float(f), inputSize: mw))
            (mapHeight, mapWidth) = (f * mh, f * mw)
        }
        if !(mapHeight == h && mapWidth == w) {
            let (t, b, l, r) = (assembler.top, assembler.bottom, assembler.left, assembler.right)
            var cropped: [Float] = []
            for y in t..<b { cropped += map[(y * mapWidth + l)..<(y * mapWidth + r)] }
            map = MaskAssembler.resample(cropped, width: r - l, rowOffset: 0, columnOffset: 0,
                                         rows: MaskAssembler.samples(0...(h - 1), scale: Float(b - t) / Float(h), inputSize: b - t),
                                         columns: MaskAssembler.samples(0...(w - 1), scale: Float(r - l) / Float(w), inputSize: r - l))
        }
        return (0..<(w * h)).map { i in
            let x = Float(i % w), y = Float(i / w)
            return map[i] > 0 && x >= box.x1 && x < box.x2 && y >= box.y1 && y < box.y2 ? 1 : 0
        }
    }

    // (image width, height, input width, height): letterboxes with padding on either axis (factors
    // 1, 2 and 4), no padding, a tiny image and one the size of the upsampled map.
    @Test(arguments: [(810, 1080, 480, 640), (1280, 720, 640, 384), (333, 251, 640, 512), (225, 400, 384, 640),
                      (640, 640, 640, 640), (17, 9, 64, 32), (160, 96, 160, 96), (300, 400, 480, 640), (500, 375, 640, 480)])
    func matchesTheWholeMapTwin(_ size: (Int, Int, Int, Int)) {
        let (w, h, inputWidth, inputHeight) = size
        var generator = SplitMix64(seed: UInt64(w &* 7919 &+ h &* 31 &+ inputWidth))
        let nm = 8, mh = inputHeight / 4, mw = inputWidth / 4
        let prototypes = (0..<(nm * mh * mw)).map { _ in Float.random(in: -1...1, using: &generator) }
        let assembler = MaskAssembler(maskCount: nm, protoHeight: mh, protoWidth: mw, imageWidth: w, imageHeight: h)
        var nonEmpty = 0
        for trial in 0..<12 {
            let coefficients = (0..<nm).map { _ in Float.random(in: -1...1, using: &generator) }
            let x1 = Float.random(in: -5...Float(w), using: &generator), y1 = Float.random(in: -5...Float(h), using: &generator)
            // Whole image, a box past the edges, and random boxes (some thinner than a pixel).
            let box = trial == 0 ? BoundingBox(x1: 0, y1: 0, x2: Float(w), y2: Float(h))
                : trial == 1 ? BoundingBox(x1: -3, y1: -3, x2: Float(w) + 3, y2: Float(h) + 3)
                : BoundingBox(x1: x1, y1: y1, x2: x1 + Float.random(in: 0...Float(w) / 2, using: &generator), y2: y1 + Float.random(in: 0...Float(h) / 2, using: &generator))
            let expected = Self.reference(assembler, prototypes: prototypes, coefficients: coefficients, box: box)
            let mask = prototypes.withUnsafeBufferPointer { assembler.mask(prototypes: $0, coefficients: { coefficients[$0] }, box: box) }
            if let mask {
                nonEmpty += 1
                #expect(mask.bitmap() == expected, "\(size) trial \(trial) box \(box): \(zip(mask.bitmap(), expected).filter { $0 != $1 }.count) pixels differ")
            } else {
                #expect(!expected.contains(1), "\(size) trial \(trial) box \(box): empty, the twin has \(expected.filter { $0 == 1 }.count) pixels")
            }
        }
        #expect(nonEmpty >= 2, "\(size): too few non-empty masks to test")
    }

    @Test func factorsFollowTheLetterboxPadding() {
        // factor = 4 / gcd(4, pad | pad // 2), pad the input letterbox's padding: bus.jpg at 480×640 has
        // none → 1; zidane.jpg at 640×384 has 24 rows (24 | 12 = 28) → 1; a 333×251 crop at 640×512 has
        // 30 rows (30 | 15 = 31) → 4.
        #expect(MaskAssembler(maskCount: 1, protoHeight: 160, protoWidth: 120, imageWidth: 810, imageHeight: 1080).factor == 1)
        #expect(MaskAssembler(maskCount: 1, protoHeight: 96, protoWidth: 160, imageWidth: 1280, imageHeight: 720).factor == 1)
        #expect(MaskAssembler(maskCount: 1, protoHeight: 128, protoWidth: 160, imageWidth: 333, imageHeight: 251).factor == 4)
    }
}
