import XCTest

import YOLOImage

/// Letterbox geometry, canvases and box mapping against Ultralytics 8.4.190 (`LetterBox`,
/// `ops.scale_boxes`) fixtures.
final class PreprocessTests: XCTestCase {
    func mode(_ name: String) throws -> ResizeMode { try XCTUnwrap(ResizeMode(rawValue: name)) }

    func geometry(_ c: LetterboxFixture.Geometry) throws -> PreprocessGeometry {
        PreprocessGeometry(width: c.w, height: c.h, options: PreprocessOptions(
            targetHeight: c.size[0], targetWidth: c.size[1], mode: try mode(c.mode)))
    }

    /// Integer geometry exactly; ratios to the last bit of a double.
    func testGeometryMatchesLetterBoxGetParams() throws {
        let cases = try ImageFixtures.load(LetterboxFixture.self, "letterbox.json").geometry
        XCTAssertGreaterThanOrEqual(cases.count, 500)
        for c in cases {
            let g = try geometry(c)
            let what = "\(c.w)x\(c.h) -> \(c.size) \(c.mode)"
            XCTAssertEqual(g.resizedWidth, c.unpadW, what)
            XCTAssertEqual(g.resizedHeight, c.unpadH, what)
            XCTAssertEqual(g.padTop, c.top, what)
            XCTAssertEqual(g.padBottom, c.bottom, what)
            XCTAssertEqual(g.padLeft, c.left, what)
            XCTAssertEqual(g.padRight, c.right, what)
            XCTAssertEqual(g.inputWidth, c.canvasW, what)
            XCTAssertEqual(g.inputHeight, c.canvasH, what)
            XCTAssertEqual(g.ratioX, c.ratioW, what)
            XCTAssertEqual(g.ratioY, c.ratioH, what)
        }
    }

    /// `mapToOriginal` against `ops.scale_boxes(input_shape, boxes, original_shape)` on float32
    /// boxes (including boxes outside the canvas, which get clipped): tolerance 0.
    func testBoxMappingMatchesScaleBoxes() throws {
        let cases = try ImageFixtures.load(LetterboxFixture.self, "letterbox.json").geometry
        var checked = 0
        for c in cases {
            guard let boxes = c.boxes, let mapped = c.mapped else { continue }
            let g = try geometry(c)
            for (box, want) in zip(boxes, mapped) {
                let got = g.mapToOriginal(x1: box[0], y1: box[1], x2: box[2], y2: box[3])
                XCTAssertEqual([got.x1, got.y1, got.x2, got.y2], want, "\(c.w)x\(c.h) -> \(c.size) \(c.mode): box \(box)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 1000)
    }

    /// The whole pipeline on the sample images (decode + LetterBox) against Ultralytics' canvas:
    /// identical bytes (hash), with sampled pixels to locate any difference.
    func testCanvasesMatchUltralytics() throws {
        let canvases = try ImageFixtures.load(LetterboxFixture.self, "letterbox.json").canvases
        let decoder = ImageDecoder()
        var images: [String: RGBImage] = [:]
        for c in canvases {
            let image = try images[c.file] ?? decoder.decode(contentsOf: try ImageFixtures.sharedImage(c.file))
            images[c.file] = image
            let m = try mode(c.mode)
            let (canvas, g) = Preprocessor(options: PreprocessOptions(imageSize: c.size, mode: m)).canvas(for: image)
            let what = "\(c.file) at \(c.size) \(m)"
            XCTAssertEqual(canvas.width, c.width, what)
            XCTAssertEqual(canvas.height, c.height, what)
            XCTAssertEqual(g.inputWidth, canvas.width)
            XCTAssertEqual(g.inputHeight, canvas.height)
            let (worst, at) = ImageFixtures.sampleDifference(RGBImageView(width: canvas.width, pixels: canvas.pixels),
                                                             samples: c.samples)
            XCTAssertEqual(worst, 0, "\(what): sampled max |diff| \(worst) at \(at)")
            XCTAssertEqual(ImageFixtures.fnv1a64(canvas.pixels), c.fnv1a64, "\(what): canvas bytes differ")
        }
    }

    /// bus.jpg (810x1080) at 640 is the 480x640 (WxH) canvas with no padding, as `predict()` makes it.
    func testBusAt640() throws {
        let bus = try ImageDecoder().decode(contentsOf: try ImageFixtures.sharedImage("bus.jpg"))
        let input = Preprocessor().preprocess(bus)
        XCTAssertEqual(input.width, 480)
        XCTAssertEqual(input.height, 640)
        XCTAssertEqual(input.chw.count, 3 * 640 * 480)
        XCTAssertEqual(input.geometry.padLeft + input.geometry.padTop + input.geometry.padRight + input.geometry.padBottom, 0)
        XCTAssertEqual(input.geometry.ratioX, 640.0 / 1080.0)
    }

    func testCHWIsChannelMajorRGBOver255() {
        // 2x1 image: pixel 0 = (0, 128, 255), pixel 1 = (1, 2, 3).
        let image = RGBImage(width: 2, height: 1, pixels: [0, 128, 255, 1, 2, 3])
        var out = [Float](repeating: -1, count: 6)
        out.withUnsafeMutableBufferPointer { Preprocessor.writeCHW(image, into: $0) }
        XCTAssertEqual(out, [0, 1, 128, 2, 255, 3].map { Float($0) / 255 })
        XCTAssertEqual(out[2], Float(128) / Float(255))  // float32 division, as torch's div_(255)
    }

    func testPaddingIs114AndCentred() {
        // A 100x50 white image into 64x64 square: resized 64x32, 16 rows of 114 above and below.
        let white = RGBImage(width: 100, height: 50, fill: (255, 255, 255))
        let (canvas, g) = Preprocessor(options: PreprocessOptions(imageSize: 64, mode: .square)).canvas(for: white)
        XCTAssertEqual([canvas.width, canvas.height, g.padTop, g.padBottom, g.padLeft], [64, 64, 16, 16, 0])
        XCTAssertTrue(canvas.pixel(x: 10, y: 15) == (114, 114, 114))
        XCTAssertTrue(canvas.pixel(x: 10, y: 16) == (255, 255, 255))
        XCTAssertTrue(canvas.pixel(x: 63, y: 47) == (255, 255, 255))
        XCTAssertTrue(canvas.pixel(x: 0, y: 48) == (114, 114, 114))
        // Letterbox mode pads only to the stride: 64x32 needs no padding at stride 32.
        let (rect, _) = Preprocessor(options: PreprocessOptions(imageSize: 64)).canvas(for: white)
        XCTAssertEqual([rect.width, rect.height], [64, 32])
    }

    func testStretch() throws {
        let image = RGBImage(width: 30, height: 10, fill: (9, 8, 7))
        let (canvas, g) = Preprocessor(options: PreprocessOptions(targetHeight: 20, targetWidth: 40, mode: .stretch))
            .canvas(for: image)
        XCTAssertEqual([canvas.width, canvas.height], [40, 20])
        XCTAssertEqual(g.ratioX, 40.0 / 30.0)
        XCTAssertEqual(g.ratioY, 2)
        let m = g.mapToOriginal(x1: 4, y1: 4, x2: 40, y2: 30)
        XCTAssertEqual(m.x1, 3)
        XCTAssertEqual(m.y1, 2)
        XCTAssertEqual(m.x2, 30)
        XCTAssertEqual(m.y2, 10)  // 15, clipped to the height
    }

    func testCropTakesTheCentre() throws {
        // 40x20 image whose left half is red and right half blue, with a green centre column pair.
        var pixels = [UInt8]()
        for _ in 0..<20 {
            for x in 0..<40 { pixels += x == 19 || x == 20 ? [0, 255, 0] : x < 20 ? [255, 0, 0] : [0, 0, 255] }
        }
        let image = RGBImage(width: 40, height: 20, pixels: pixels)
        let (canvas, g) = Preprocessor(options: PreprocessOptions(imageSize: 10, mode: .crop)).canvas(for: image)
        XCTAssertEqual([canvas.width, canvas.height], [10, 10])
        XCTAssertEqual([g.resizedWidth, g.resizedHeight, g.cropLeft, g.cropTop], [20, 10, 5, 0])
        XCTAssertEqual(canvas.pixel(x: 0, y: 5).r, 255)
        XCTAssertEqual(canvas.pixel(x: 9, y: 5).b, 255)
        // The canvas's (0, 0) is original (10, 0); its (10, 10) is original (30, 20).
        let m = g.mapToOriginal(x1: 0, y1: 0, x2: 10, y2: 10)
        XCTAssertEqual([m.x1, m.y1, m.x2, m.y2], [10, 0, 30, 20])
    }

    func testStrideAligned() {
        XCTAssertEqual(PreprocessOptions.strideAligned(640), 640)
        XCTAssertEqual(PreprocessOptions.strideAligned(333), 352)
        XCTAssertEqual(PreprocessOptions.strideAligned(1), 32)
        XCTAssertEqual(PreprocessOptions.strideAligned(0), 32)
    }

    func testNoScaleUpKeepsSmallImages() {
        let small = RGBImage(width: 20, height: 10, fill: (1, 2, 3))
        let g = Preprocessor(options: PreprocessOptions(imageSize: 64, mode: .square, scaleUp: false))
            .geometry(width: small.width, height: small.height)
        XCTAssertEqual([g.resizedWidth, g.resizedHeight, g.padLeft, g.padTop], [20, 10, 22, 27])
        let m = g.mapToOriginal(x1: 22, y1: 27, x2: 42, y2: 37)
        XCTAssertEqual([m.x1, m.y1, m.x2, m.y2], [0, 0, 20, 10])
    }
}
