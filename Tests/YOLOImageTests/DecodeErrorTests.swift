import Foundation
import TestSupport
import XCTest

import YOLOImage

/// Broken, hostile and unsupported inputs: each gives a typed error whose description names the
/// file; nothing crashes, nothing prints, nothing is allocated from a lying header.
final class DecodeErrorTests: XCTestCase {
    var dir: TemporaryDirectory!

    override func setUpWithError() throws {
        dir = try TemporaryDirectory()
    }

    override func tearDown() {
        dir = nil
    }

    func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: ImageFixtures.path("decode/" + name))))
    }

    /// Decodes `bytes` written as `name`, expecting an error of `kind`, and checks the message names the file.
    func expectError(_ name: String, _ bytes: [UInt8], decoder: ImageDecoder = ImageDecoder(),
                     file: StaticString = #filePath, line: UInt = #line,
                     _ kind: (ImageError) -> Bool) throws {
        let path = try dir.write(name, bytes)
        do {
            let image = try decoder.decode(contentsOf: path)
            XCTFail("\(name) decoded to \(image.width)x\(image.height), expected an error", file: file, line: line)
        } catch {
            XCTAssertTrue(kind(error), "\(name): unexpected error \(error)", file: file, line: line)
            XCTAssertTrue(error.description.contains(path), "\(name): '\(error)' does not name the file",
                          file: file, line: line)
            XCTAssertEqual(error.file, path, file: file, line: line)
        }
    }

    func testTruncatedPNG() throws {
        let png = try fixture("png_rgb8_interlaced.png")
        for cut in [9, 20, 33, 45, png.count / 2, png.count - 13] {  // in the signature, IHDR, IDAT
            try expectError("cut\(cut).png", Array(png.prefix(cut))) { error in
                if case .truncated = error { return true }
                if case .corrupt = error { return cut < 33 }  // a cut IHDR is reported as corrupt by libpng
                return false
            }
        }
    }

    func testPNGMissingIENDIsTruncated() throws {
        let png = try fixture("png_rgb8.png")
        try expectError("noiend.png", Array(png.dropLast(12))) {
            if case .truncated = $0 { return true } else { return false }
        }
    }

    func testTruncatedJPEG() throws {
        for name in ["jpeg_baseline_420.jpg", "jpeg_progressive.jpg"] {
            let jpeg = try fixture(name)
            for cut in [3, 40, jpeg.count / 2, jpeg.count - 20] {
                try expectError("cut\(cut)-\(name)", Array(jpeg.prefix(cut))) { error in
                    if case .truncated = error { return true }
                    if case .corrupt = error { return cut < 200 }  // ends inside the headers
                    return false
                }
            }
        }
    }

    func testCorruptPNG() throws {
        var png = try fixture("png_rgb8.png")
        png[20] ^= 0xFF  // inside IHDR: CRC mismatch on a critical chunk
        try expectError("badcrc.png", png) {
            if case .corrupt(_, let reason) = $0 { return reason.contains("CRC") } else { return false }
        }
        var data = try fixture("png_rgb8.png")
        let idat = try XCTUnwrap(findChunk("IDAT", in: data))
        data[idat + 8] ^= 0x5A  // zlib header of the image data
        fixCRC(&data, chunkAt: idat)
        try expectError("badzlib.png", data) {
            if case .corrupt = $0 { return true } else { return false }
        }
    }

    func testCorruptJPEG() throws {
        var jpeg = try fixture("jpeg_baseline_420.jpg")
        // Destroy the SOF marker: libjpeg finds no frame header.
        let sof = try XCTUnwrap((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[sof + 1] = 0xCF  // SOF15: lossless arithmetic, unsupported
        try expectError("badsof.jpg", jpeg) {
            switch $0 {
            case .corrupt, .unsupported: return true
            default: return false
            }
        }
        try expectError("garbage.jpg", [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0x42, count: 100)) {
            if case .corrupt = $0 { return true } else { return false }
        }
    }

    func testUnknownAndEmpty() throws {
        try expectError("anim.png", Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20)) {
            if case .unknownFormat(_, let detected) = $0 { return detected == "GIF" } else { return false }
        }
        try expectError("notes.jpg", Array("hello, world".utf8)) {
            if case .unknownFormat(_, nil) = $0 { return true } else { return false }
        }
        try expectError("empty.png", []) {
            if case .corrupt = $0 { return true } else { return false }
        }
    }

    func testUnreadable() throws {
        let missing = dir.path + "/does-not-exist.png"
        XCTAssertThrowsError(try ImageDecoder().decode(contentsOf: missing)) { error in
            guard let error = error as? ImageError, case .unreadable = error else { return XCTFail("\(error)") }
            XCTAssertTrue(error.description.contains(missing), error.description)
            XCTAssertTrue(error.description.contains("No such file"), error.description)
        }
        XCTAssertThrowsError(try ImageDecoder().decode(contentsOf: dir.path)) { error in
            XCTAssertTrue("\(error)".contains("directory"), "\(error)")
        }
        let small = ImageDecoder(maxFileBytes: 10)
        let path = ImageFixtures.path("decode/png_rgb8.png")
        XCTAssertThrowsError(try small.decode(contentsOf: path)) { error in
            XCTAssertTrue("\(error)".contains(path) && "\(error)".contains("limit"), "\(error)")
        }
    }

    /// A PNG whose IHDR claims 100000 x 100000 (10 gigapixels) with a valid CRC and nothing else:
    /// refused from the header, before any pixel buffer exists (it would need 30 GB).
    func testOversizedPNGIsRefusedFromHeader() throws {
        let huge = pngHeaderOnly(width: 100_000, height: 100_000)
        try expectError("huge.png", huge) {
            if case .tooLarge(_, 100_000, 100_000, ImageDecoder.defaultMaxPixels) = $0 { return true }
            return false
        }
        // The limit is configurable, and applies to real images too.
        let bus = try ImageFixtures.sharedImage("bus.jpg")
        XCTAssertThrowsError(try ImageDecoder(maxPixels: 810 * 1080 - 1).decode(contentsOf: bus)) { error in
            guard let error = error as? ImageError, case .tooLarge(_, 810, 1080, _) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(error.description.contains("bus.jpg") && error.description.contains("810x1080"))
        }
        XCTAssertNoThrow(try ImageDecoder(maxPixels: 810 * 1080).info(contentsOf: bus))
        // Overflowing products are refused too.
        try expectError("max.png", pngHeaderOnly(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF)) {
            if case .tooLarge = $0 { return true } else { return false }
        }
    }

    func testOversizedJPEGIsRefusedFromHeader() throws {
        var jpeg = try fixture("jpeg_baseline_420.jpg")
        let sof = try XCTUnwrap((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        // SOF0: FF C0, length(2), precision(1), height(2), width(2)
        jpeg[sof + 5] = 0xEA; jpeg[sof + 6] = 0x60  // height 60000
        jpeg[sof + 7] = 0xEA; jpeg[sof + 8] = 0x60  // width 60000
        try expectError("huge.jpg", jpeg) {
            if case .tooLarge(_, 60_000, 60_000, _) = $0 { return true } else { return false }
        }
    }

    func testZeroWidthPNG() throws {
        try expectError("zero.png", pngHeaderOnly(width: 0, height: 5)) {
            switch $0 {
            case .corrupt, .invalidDimensions: return true
            default: return false
            }
        }
    }

    func testErrorsInMemoryUseTheGivenName() {
        XCTAssertThrowsError(try ImageDecoder().decode([0x00, 0x01], name: "upload #3")) { error in
            XCTAssertTrue("\(error)".contains("upload #3"), "\(error)")
        }
    }

    /// Random byte flips, truncations and splices of every fixture: each decode either succeeds
    /// or throws an `ImageError`; libpng/libjpeg never abort, exit or print.
    func testMutatedFilesNeverCrash() throws {
        let entries = try ImageFixtures.load(DecodeFixture.self, "decode.json").images
        var rng = SplitMix64(seed: 99)
        let decoder = ImageDecoder(maxPixels: 4_000_000)
        var failures = 0, successes = 0
        for entry in entries {
            let original = try fixture(String(entry.file.dropFirst("decode/".count)))
            for round in 0..<25 {
                var bytes = original
                switch round % 3 {
                case 0:
                    for _ in 0..<Int.random(in: 1...4, using: &rng) {
                        let i = Int.random(in: 0..<bytes.count, using: &rng)
                        bytes[i] = UInt8.random(in: 0...255, using: &rng)
                    }
                case 1:
                    bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng)))
                default:
                    let i = Int.random(in: 0..<bytes.count, using: &rng)
                    bytes.insert(contentsOf: (0..<Int.random(in: 1...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }, at: i)
                }
                do {
                    _ = try decoder.decode(bytes, name: "mutant")
                    successes += 1
                } catch {
                    XCTAssertEqual(error.file, "mutant")
                    failures += 1
                }
            }
        }
        XCTAssertGreaterThan(failures, 100)
        XCTAssertGreaterThan(successes, 10)  // e.g. flips inside JPEG entropy data decode to other pixels
    }

    // MARK: - PNG byte helpers

    func pngHeaderOnly(width: UInt32, height: UInt32) -> [UInt8] {
        var ihdr: [UInt8] = Array("IHDR".utf8)
        ihdr += bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13) + ihdr + bigEndian(crc32(ihdr))
    }

    func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    func findChunk(_ type: String, in png: [UInt8]) -> Int? {
        var pos = 8
        let want = Array(type.utf8)
        while pos + 8 <= png.count {
            let length = Int(png[pos]) << 24 | Int(png[pos + 1]) << 16 | Int(png[pos + 2]) << 8 | Int(png[pos + 3])
            if Array(png[(pos + 4)..<(pos + 8)]) == want { return pos }
            pos += 12 + length
        }
        return nil
    }

    func fixCRC(_ png: inout [UInt8], chunkAt pos: Int) {
        let length = Int(png[pos]) << 24 | Int(png[pos + 1]) << 16 | Int(png[pos + 2]) << 8 | Int(png[pos + 3])
        let crc = bigEndian(crc32(Array(png[(pos + 4)..<(pos + 8 + length)])))
        png.replaceSubrange((pos + 8 + length)..<(pos + 12 + length), with: crc)
    }

    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }
}
