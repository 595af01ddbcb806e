import Foundation
import Testing
import TestSupport
import YOLOFileSystem

/// SHA-256 against FIPS 180-4's examples, fed whole and in pieces of every length around a block,
/// and of a file read in chunks.
@Suite struct SHA256Tests {
    static func digest(_ bytes: [UInt8]) -> String {
        var hash = SHA256()
        bytes.withUnsafeBytes { hash.update($0) }
        return hash.hexDigest()
    }

    /// The message is `unit` repeated `count` times (a million `a` is one of the examples).
    @Test(arguments: [
        ("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("a", 1_000_000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ])
    func matchesTheStandardsExamples(_ unit: String, _ count: Int, _ expected: String) {
        #expect(Self.digest(Array(String(repeating: unit, count: count).utf8)) == expected)
    }

    /// Pieces of 1 to 130 bytes, so that every way of filling, finishing and crossing a block is
    /// fed; and the lengths around the padding's boundary (55, 56 and 64 bytes in the last block).
    /// The digests are Python's `hashlib.sha256` of the same bytes.
    @Test func piecesAndPaddingGiveTheDigestOfTheWhole() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 3) }
        let whole = "3a239499e07ae781dd09ea627fc2cee3a57962792480418bf432e84cc1a9f6e9"
        for piece in 1...130 {
            var hash = SHA256()
            for start in stride(from: 0, to: bytes.count, by: piece) {
                bytes[start..<min(start + piece, bytes.count)].withUnsafeBytes { hash.update($0) }
            }
            #expect(hash.hexDigest() == whole, "pieces of \(piece) bytes")
        }
        for (length, expected) in [
            (55, "c911526ca700b4b323be596368ccb50f125e422bd8a06fa1b9a4a9ec82b21ce9"),
            (56, "16e06ada6cb336b69ca61359e1dc9eca78dafdd348a7bc854e82bc117eaa2767"),
            (63, "dab375858f18138d8fe414f6d33d99d3774efabf29b35efe2d41703d6fd084f6"),
            (64, "bba71ecdb55b9b24ab0a27faf2f128d89472c1a2ef7f4ff4d8fc0543eb7fd0fe"),
            (65, "f16cd4700a3bd45f13672162f5a6868f2a9dba2be5c5f6fc2f75a03f1487e2a1"),
            (119, "248fb955637bfb842c3c6a12a545dfb14024bd93c6d7df338ea4ba46762497d6"),
            (120, "b4568f92467eb4f76a8b1698d710b81f7c5c097206471549aea5a7ae473e9167"),
        ] {
            #expect(Self.digest(Array(bytes.prefix(length))) == expected, "\(length) bytes")
        }
    }

    @Test func aFileInChunksHasTheDigestOfItsBytes() throws {
        let bytes = (0..<(3 << 20) + 77).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        let path = try ScratchDirectory.write(bytes, to: "sha256/file.bin")
        #expect(try SHA256.hexDigest(ofFileAt: path) == "a1a0b542e831a857a024043d9c26882425671d883d22e405e32eaf1a8944ad78")
        #expect(throws: FileSystemError.self) { try SHA256.hexDigest(ofFileAt: path + ".missing") }
    }
}
