import Testing
import TestSupport
import YOLOFileSystem

/// File names as bytes: every byte string survives the trip through `String`, and what reaches a
/// terminal or JSON is safe and still says which bytes the name had.
@Suite struct PathEncodingTests {
    @Test func everyByteStringRoundTrips() {
        var random = SplitMix64(seed: 7)
        let samples: [[UInt8]] = [
            Array("bus.jpg".utf8), Array("Zürich 東京 🚌.png".utf8),
            [0x66, 0xE9, 0x65, 0x2E, 0x6A, 0x70, 0x67],  // Latin-1 "fée.jpg"
            [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],  // invalid, overlong, surrogate, past U+10FFFF
            [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x8F, 0xBC, 0x80],  // U+10FFFF, U+10FF00: valid but the escape range
            [0xE2, 0x82], [0x61, 0x80, 0x62],
        ] + (0..<2000).map { _ in (0..<Int(random.next() % 12)).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        for bytes in samples {
            let string = PathEncoding.string(fromFileSystem: bytes)
            #expect(PathEncoding.bytes(of: string) == bytes, "\(bytes)")
        }
    }

    @Test func validNamesAreTheirOwnString() {
        #expect(PathEncoding.string(fromFileSystem: Array("Zürich 東京 🚌.png".utf8)) == "Zürich 東京 🚌.png")
        #expect(PathEncoding.bytes(of: "Zürich.png") == Array("Zürich.png".utf8))
    }

    @Test func terminalTextHasNoControlBytes() {
        let name = PathEncoding.string(fromFileSystem: [0x1B] + Array("[2Jx".utf8) + [0xFF, 0x0A, 0x9B] + Array(".jpg".utf8))
        #expect(DisplayText.terminal(name) == "\\x1b[2Jx\\xff\\x0a\\x9b.jpg" || DisplayText.terminal(name) == "\\x1b[2Jx\\xff\\x0a\\xc2\\x9b.jpg")
        #expect(DisplayText.terminal("Zürich 東京.png") == "Zürich 東京.png")
    }

    @Test func jsonCarriesEscapedBytesAsLoneSurrogates() {
        let name = PathEncoding.string(fromFileSystem: [0x66, 0xE9, 0x22, 0x5C, 0x0A] + Array("é.jpg".utf8))
        #expect(DisplayText.jsonString(name) == "\"f\\udce9\\\"\\\\\\né.jpg\"")
    }
}
