import Foundation
import XCTest

import YOLOImage

final class AnnotatorTests: XCTestCase {
    func testBoxOutlineColourAndWidth() {
        let image = RGBImage(width: 100, height: 80, fill: (0, 0, 0))
        let box = BoxAnnotation(x1: 20, y1: 30, x2: 60, y2: 70, classId: 0, text: "")
        let out = Annotator.annotate(image, boxes: [box], lineWidth: 2)
        let blue = Annotator.color(forClass: 0)
        XCTAssertTrue(blue == (0x04, 0x2A, 0xFF))
        XCTAssertTrue(out.pixel(x: 40, y: 29) == blue)  // top band: rows 29, 30
        XCTAssertTrue(out.pixel(x: 40, y: 30) == blue)
        XCTAssertTrue(out.pixel(x: 40, y: 31) == (0, 0, 0))
        XCTAssertTrue(out.pixel(x: 40, y: 28) == (0, 0, 0))
        XCTAssertTrue(out.pixel(x: 19, y: 50) == blue)  // left band: columns 19, 20
        XCTAssertTrue(out.pixel(x: 21, y: 50) == (0, 0, 0))
        XCTAssertTrue(out.pixel(x: 60, y: 50) == blue)  // right band: 59, 60
        XCTAssertTrue(out.pixel(x: 40, y: 60) == (0, 0, 0))  // inside untouched
    }

    func testLabelTabAboveWithTextAndInsideWhenNoRoom() {
        let image = RGBImage(width: 200, height: 100, fill: (0, 0, 0))
        let box = BoxAnnotation(x1: 50, y1: 40, x2: 150, y2: 90, classId: 1, name: "bus", confidence: 0.87)
        XCTAssertEqual(box.text, "bus 0.87")
        let out = Annotator.annotate(image, boxes: [box], lineWidth: 2)
        let cyan = Annotator.color(forClass: 1)
        // Tab: 8 chars * 6 - 1 = 47 px of text + 2 * 2 padding, 7 + 4 tall, ending at the box top band.
        XCTAssertTrue(out.pixel(x: 50, y: 30) == cyan)
        XCTAssertTrue(out.pixel(x: 49 + 50, y: 30) == cyan)
        let inkRows = (28...38).filter { y in (50...100).contains { out.pixel(x: $0, y: y) == (17, 31, 104) } }
        XCTAssertFalse(inkRows.isEmpty, "dark text expected on class 1's light colour")
        // A box at the top edge: the tab goes inside, below y1.
        let top = BoxAnnotation(x1: 10, y1: 0, x2: 100, y2: 60, classId: 0, text: "x")
        let out2 = Annotator.annotate(image, boxes: [top], lineWidth: 2)
        XCTAssertTrue(out2.pixel(x: 10, y: 5) == Annotator.color(forClass: 0))  // tab padding, below y1 = 0
        XCTAssertTrue((0..<100).contains { y in (0..<200).contains { out2.pixel(x: $0, y: y) == (255, 255, 255) } })
    }

    func testNonASCIIDrawsBoxesAndNothingTraps() {
        let image = RGBImage(width: 30, height: 20, fill: (0, 0, 0))
        // Boxes partly or wholly outside, inverted, huge: all clipped.
        let boxes = [
            BoxAnnotation(x1: -50, y1: -50, x2: 500, y2: 500, classId: 25, text: "Ölçü 0.50 日本"),
            BoxAnnotation(x1: 25, y1: 15, x2: 5, y2: 2, classId: -3, text: "inverted"),
            BoxAnnotation(x1: 1e9, y1: 1e9, x2: 2e9, y2: 2e9, classId: 7, text: "far"),
        ]
        let out = Annotator.annotate(image, boxes: boxes)
        XCTAssertEqual(out.pixels.count, image.pixels.count)
        XCTAssertEqual(BitmapFont.rows(for: "Ö"), nil)
        XCTAssertEqual(Array(BitmapFont.rows(for: "A") ?? []), [0x0E, 0x11, 0x11, 0x11, 0x1F, 0x11, 0x11])
        XCTAssertEqual(BitmapFont.glyphs.count, 95 * 7)
    }

    func testDefaultLineWidthIsUltralytics() {
        XCTAssertEqual(Annotator.defaultLineWidth(width: 810, height: 1080), 3)  // round(1893 / 2 * 0.003) = 3
        XCTAssertEqual(Annotator.defaultLineWidth(width: 640, height: 480), 2)
        XCTAssertEqual(Annotator.defaultLineWidth(width: 3840, height: 2160), 9)
    }

    func testWritePNGRoundTripsAndNeverReplacesAFile() throws {
        let dir = try TemporaryDirectory()
        var pixels = [UInt8]()
        for i in 0..<(17 * 9) { pixels += [UInt8(i % 256), UInt8((i * 7) % 256), UInt8((i * 13) % 256)] }
        let image = RGBImage(width: 17, height: 9, pixels: pixels)
        let path = dir.path + "/out.png"
        XCTAssertEqual(try image.writePNG(to: path), path)
        XCTAssertEqual(try ImageDecoder().decode(contentsOf: path), image)
        // The name is taken: the next free one is used, the first file is kept, no temporary is left.
        let other = RGBImage(width: 3, height: 2, fill: (1, 2, 3))
        XCTAssertEqual(try other.writePNG(to: path), dir.path + "/out_2.png")
        XCTAssertEqual(try ImageDecoder().decode(contentsOf: path), image)
        XCTAssertEqual(try ImageDecoder().decode(contentsOf: dir.path + "/out_2.png"), other)
        XCTAssertEqual(dir.contents, ["out.png", "out_2.png"])
    }

    func testWritePNGFailureNamesTheFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/missing-dir/out.png"
        XCTAssertThrowsError(try RGBImage(width: 2, height: 2).writePNG(to: path)) { error in
            guard let error = error as? ImageError, case .writeFailed = error else { return XCTFail("\(error)") }
            XCTAssertTrue(error.description.contains(path), error.description)
        }
        XCTAssertThrowsError(try RGBImage(width: 2, height: 2).writePNG(to: dir.path + "/"))
        XCTAssertEqual(dir.contents, [])
    }

    /// The annotated bus (written for eyeballing when SWIFT_YOLO_KEEP_ANNOTATED is set).
    func testAnnotateSampleImage() throws {
        let bus = try ImageDecoder().decode(contentsOf: try ImageFixtures.sharedImage("bus.jpg"))
        let boxes = [
            BoxAnnotation(x1: 22, y1: 231, x2: 805, y2: 756, classId: 5, name: "bus", confidence: 0.94),
            BoxAnnotation(x1: 48, y1: 398, x2: 245, y2: 902, classId: 0, name: "person", confidence: 0.89),
            BoxAnnotation(x1: 0, y1: 550, x2: 63, y2: 873, classId: 0, name: "person", confidence: 0.52),
        ]
        let out = Annotator.annotate(bus, boxes: boxes)
        XCTAssertNotEqual(out, bus)
        if let keep = ProcessInfo.processInfo.environment["SWIFT_YOLO_KEEP_ANNOTATED"] {
            try out.writePNG(to: keep)
        }
    }
}
