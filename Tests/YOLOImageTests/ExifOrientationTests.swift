import XCTest

import YOLOImage

/// The TIFF reader on hand-made blocks: both byte orders, and every way a block can lie about
/// its offsets (nothing may trap; the tag is simply not found).
final class ExifOrientationTests: XCTestCase {
    func tiff(_ orientation: UInt16, littleEndian: Bool, entriesBefore: Int = 0) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] {
            littleEndian ? u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) : u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF))
        }
        var b: [UInt8] = (littleEndian ? Array("II".utf8) : Array("MM".utf8)) + u16(42) + u32(8)
        b += u16(UInt16(entriesBefore + 1))
        for k in 0..<entriesBefore { b += u16(0x0100 + UInt16(k)) + u16(4) + u32(1) + u32(640) }
        b += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
        return b + u32(0)
    }

    func testBothByteOrders() {
        for o in UInt16(1)...8 {
            XCTAssertEqual(ExifOrientation.orientationTag(inTIFF: tiff(o, littleEndian: true, entriesBefore: 2)[...]), o)
            XCTAssertEqual(ExifOrientation.orientationTag(inTIFF: tiff(o, littleEndian: false)[...]), o)
        }
    }

    func testEveryTruncationIsSafe() {
        let block = tiff(6, littleEndian: false, entriesBefore: 3)
        for n in 0..<block.count {
            let value = ExifOrientation.orientationTag(inTIFF: block.prefix(n))
            // Found only once the whole orientation value is present.
            XCTAssertEqual(value, n >= 8 + 2 + 12 * 3 + 10 ? 6 : nil, "prefix \(n)")
        }
    }

    func testLyingOffsets() {
        var block = tiff(3, littleEndian: true)
        block[4] = 0xF0; block[5] = 0xFF; block[6] = 0xFF; block[7] = 0xFF  // IFD offset ~4 GB
        XCTAssertNil(ExifOrientation.orientationTag(inTIFF: block[...]))
        var many = tiff(3, littleEndian: true)
        many[8] = 0xFF; many[9] = 0xFF  // 65535 entries, far past the end
        XCTAssertEqual(ExifOrientation.orientationTag(inTIFF: many[...]), 3)  // the real one comes first
        var bad = tiff(3, littleEndian: true)
        bad[2] = 43  // not TIFF magic 42
        XCTAssertNil(ExifOrientation.orientationTag(inTIFF: bad[...]))
        XCTAssertNil(ExifOrientation.orientationTag(inTIFF: Array("XX*\0\u{8}\0\0\0".utf8)[...]))
    }

    func testSlicesWithNonZeroStart() {
        let padded = [UInt8](repeating: 0xAA, count: 17) + tiff(8, littleEndian: false)
        XCTAssertEqual(ExifOrientation.orientationTag(inTIFF: padded.dropFirst(17)), 8)
    }

    func testJPEGSegmentWalkIsBounded() {
        let exif = Array("Exif".utf8) + [0, 0] + tiff(5, littleEndian: true)
        let length = exif.count + 2
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exif + [0xFF, 0xD9]
        XCTAssertEqual(ExifOrientation.find(in: jpeg, format: .jpeg), .leftTop)
        for n in 0..<jpeg.count - 2 {  // every truncation: no trap, and no tag unless complete
            let found = ExifOrientation.find(in: Array(jpeg.prefix(n)), format: .jpeg)
            XCTAssertEqual(found, n >= 6 + exif.count ? .leftTop : nil, "prefix \(n)")
        }
        // A segment length that runs past the end.
        XCTAssertNil(ExifOrientation.find(in: [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45], format: .jpeg))
    }

    func testPNGChunkWalkIsBounded() {
        let data = tiff(7, littleEndian: false)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += [0, 0, 0, UInt8(data.count)] + Array("eXIf".utf8) + data + [0, 0, 0, 0]
        XCTAssertEqual(ExifOrientation.find(in: png, format: .png), .rightBottom)
        var lying = png
        lying[8] = 0x7F  // chunk length ~2 GB
        XCTAssertNil(ExifOrientation.find(in: lying, format: .png))
    }

    /// The transforms on a 3x2 image with distinct pixels, written out by hand.
    func testTransforms() {
        // Pixels numbered 1...6, row-major:  1 2 3 / 4 5 6
        let image = RGBImage(width: 3, height: 2, pixels: (1...6).flatMap { [UInt8($0), 0, 0] })
        func reds(_ o: ExifOrientation) -> [UInt8] {
            let out = o.apply(to: image)
            return stride(from: 0, to: out.pixels.count, by: 3).map { out.pixels[$0] }
        }
        XCTAssertEqual(reds(.topLeft), [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(reds(.topRight), [3, 2, 1, 6, 5, 4])
        XCTAssertEqual(reds(.bottomRight), [6, 5, 4, 3, 2, 1])
        XCTAssertEqual(reds(.bottomLeft), [4, 5, 6, 1, 2, 3])
        XCTAssertEqual(reds(.leftTop), [1, 4, 2, 5, 3, 6])      // transpose: 2 wide, 3 tall
        XCTAssertEqual(reds(.rightTop), [4, 1, 5, 2, 6, 3])     // 90° clockwise
        XCTAssertEqual(reds(.rightBottom), [6, 3, 5, 2, 4, 1])  // transverse
        XCTAssertEqual(reds(.leftBottom), [3, 6, 2, 5, 1, 4])   // 90° counter-clockwise
        XCTAssertEqual(ExifOrientation.rightTop.apply(to: image).width, 2)
    }
}
