import Foundation
import TestSupport
import XCTest

import YOLOImage

/// Decoding against `cv2.imread(path)` (IMREAD_COLOR) references: every byte must match
/// (tolerance 0).
final class DecodeTests: XCTestCase {
    func testEveryVariantMatchesOpenCV() throws {
        let entries = try ImageFixtures.load(DecodeFixture.self, "decode.json").images
        XCTAssertGreaterThanOrEqual(entries.count, 40)
        let decoder = ImageDecoder()
        for entry in entries {
            let file = entry.file, note = entry.note
            let image = try decoder.decode(contentsOf: ImageFixtures.path(file))
            XCTAssertEqual(image.width, entry.width, "\(file) (\(note)) width")
            XCTAssertEqual(image.height, entry.height, "\(file) (\(note)) height")
            let expected = ImageFixtures.bytes(base64: entry.rgbBase64)
            guard image.pixels.count == expected.count else {
                XCTFail("\(file): \(image.pixels.count) bytes, cv2 has \(expected.count)")
                continue
            }
            let (worst, index) = ImageFixtures.maxDifference(image.pixels, expected)
            XCTAssertEqual(worst, 0, "\(file) (\(note)): max |diff| \(worst) at byte \(index)")
        }
    }

    func testSampleImagesMatchOpenCV() throws {
        let large = try ImageFixtures.load(DecodeFixture.self, "decode.json").large
        for entry in large {
            let name = entry.file
            let image = try ImageDecoder().decode(contentsOf: try ImageFixtures.sharedImage(name))
            XCTAssertEqual(image.width, entry.width, name)
            XCTAssertEqual(image.height, entry.height, name)
            let (worst, at) = ImageFixtures.sampleDifference(RGBImageView(width: image.width, pixels: image.pixels),
                                                             samples: entry.samples)
            XCTAssertEqual(worst, 0, "\(name): sampled max |diff| \(worst) at \(at)")
            XCTAssertEqual(ImageFixtures.fnv1a64(image.pixels), entry.fnv1a64,
                           "\(name): decoded bytes differ from cv2.imread")
        }
    }

    func testMemoryAndFileDecodeAgree() throws {
        let path = ImageFixtures.path("decode/jpeg_exif6.jpg")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let decoder = ImageDecoder()
        XCTAssertEqual(try decoder.decode(bytes, name: "mem.jpg"), try decoder.decode(contentsOf: path))
        XCTAssertEqual(try decoder.decode(data: Data(bytes)), try decoder.decode(contentsOf: path))
    }

    func testInfoReadsHeaderAndOrientation() throws {
        let decoder = ImageDecoder()
        let png = try decoder.info(contentsOf: ImageFixtures.path("decode/png_rgba16_interlaced.png"))
        XCTAssertEqual(png.format, .png)
        XCTAssertEqual(png.width, 10)
        XCTAssertEqual(png.height, 9)
        XCTAssertEqual(png.bitDepth, 16)
        XCTAssertEqual(png.components, 4)
        XCTAssertTrue(png.interlaced)
        let jpeg = try decoder.info(contentsOf: ImageFixtures.path("decode/jpeg_exif6.jpg"))
        XCTAssertEqual(jpeg.format, .jpeg)
        XCTAssertEqual(jpeg.width, 12)  // stored size; decoding rotates to 8x12
        XCTAssertEqual(jpeg.orientation, .rightTop)
        XCTAssertEqual(try decoder.info(contentsOf: ImageFixtures.path("decode/jpeg_progressive.jpg")).interlaced, true)
        XCTAssertNil(try decoder.info(contentsOf: ImageFixtures.path("decode/jpeg_exif1.jpg")).orientation)
    }

    func testOrientationCanBeIgnored() throws {
        let decoder = ImageDecoder(appliesExifOrientation: false)
        let image = try decoder.decode(contentsOf: ImageFixtures.path("decode/jpeg_exif6.jpg"))
        XCTAssertEqual(image.width, 12)
        XCTAssertEqual(image.height, 8)
    }

    func testFormatIsToldByMagicBytesNotExtension() throws {
        let dir = try TemporaryDirectory()
        let png = try Data(contentsOf: URL(fileURLWithPath: ImageFixtures.path("decode/png_rgb8.png")))
        let misnamed = dir.path + "/actually-a-png.jpg"
        try png.write(to: URL(fileURLWithPath: misnamed))
        let image = try ImageDecoder().decode(contentsOf: misnamed)
        XCTAssertEqual(image, try ImageDecoder().decode(contentsOf: ImageFixtures.path("decode/png_rgb8.png")))
    }
}

/// A fresh directory in the test process's scratch directory, removed on deinit, and with the
/// scratch directory at exit where a test case outlives its run (XCTest on Linux keeps them all).
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = ScratchDirectory.path + "/yoloimage-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }
}
