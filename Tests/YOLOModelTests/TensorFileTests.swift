import Foundation
import Testing
import YOLOModel

/// A tensor file is validated completely on open: every broken field gives a typed error that names
/// the file (and the tensor), never a crash or an out-of-bounds read.
@Suite struct TensorFileTests {
    static let metadata: JSONValue = .object(["kind": .string("weights"), "note": .string("test")])

    func smallFile() -> TensorFileWriter {
        TensorFileWriter(metadata: Self.metadata, tensors: [
            ("a.weight", [2, 3], [1, 2, 3, 4, 5, 6]),
            ("b.bias", [5], [0.5, -1, 2, 3, 4]),
            ("scalar", [], [7]),
        ])
    }

    @Test func readsWhatTheWriterWrote() throws {
        let file = try TensorFile(path: try smallFile().write())
        #expect(file.entries.map(\.name) == ["a.weight", "b.bias", "scalar"])
        #expect(try file.tensor(named: "a.weight").values == [1, 2, 3, 4, 5, 6])
        #expect(try file.tensor(named: "b.bias").shape == [5])
        #expect(try file.tensor(named: "scalar").values == [7])
        #expect(file.entries.allSatisfy { $0.fileOffset % 64 == 0 })
        #expect(file.metadata["note"]?.stringValue == "test")
    }

    @Test func everyTruncationIsAnErrorThatNamesTheFile() throws {
        let bytes = try smallFile().bytes()
        for length in [0, 1, 7, 8, 12, 40, 63, 64, 65, bytes.count / 2, bytes.count - 64, bytes.count - 1] {
            let path = try TemporaryFile.write(Array(bytes.prefix(length)), name: "truncated-\(length)")
            #expect(throws: TensorFileError.self, "cut at \(length) bytes") { try TensorFile(path: path) }
            do { _ = try TensorFile(path: path) } catch { #expect("\(error)".contains(path)) }
        }
    }

    @Test func rejectsWrongMagicAndVersion() throws {
        var bytes = try smallFile().bytes()
        bytes[0] = UInt8(ascii: "X")
        let badMagic = try TemporaryFile.write(bytes, name: "magic")
        #expect(throws: TensorFileError.notATensorFile(file: badMagic)) { try TensorFile(path: badMagic) }

        bytes = try smallFile().bytes()
        bytes[8] = 9
        let badVersion = try TemporaryFile.write(bytes, name: "version")
        #expect(throws: TensorFileError.unsupportedVersion(file: badVersion, version: 9)) { try TensorFile(path: badVersion) }

        let pickle = try TemporaryFile.write(Array("PK\u{3}\u{4} this is a zip, not converted".utf8) + [UInt8](repeating: 0, count: 80), name: "zip")
        #expect(throws: TensorFileError.notATensorFile(file: pickle)) { try TensorFile(path: pickle) }
    }

    @Test func rejectsBrokenTableEntries() throws {
        let base = try smallFile().bytes()
        let tableOffset = Int(base[32]) | Int(base[33]) << 8
        // Entry 0 starts with u32 name length 8, "a.weight", u32 dtype, u32 rank 2, dims, offset, length.
        let dtypeAt = tableOffset + 4 + 8, firstDimensionAt = dtypeAt + 8, offsetAt = firstDimensionAt + 16
        func broken(_ name: String, _ edit: (inout [UInt8]) -> Void) throws -> String {
            var bytes = base
            edit(&bytes)
            return try TemporaryFile.write(bytes, name: name)
        }
        let dtype = try broken("dtype") { $0[dtypeAt] = 1 }
        #expect(throws: TensorFileError.corruptTensor(file: dtype, tensor: "a.weight", reason: "dtype 1 is not float32 (0)")) { try TensorFile(path: dtype) }
        let shape = try broken("shape") { $0[firstDimensionAt] = 3 }
        #expect(throws: TensorFileError.self) { try TensorFile(path: shape) }
        let misaligned = try broken("misaligned") { $0[offsetAt] = 4 }
        #expect(throws: TensorFileError.corruptTensor(file: misaligned, tensor: "a.weight", reason: "offset 4 is not 64-byte aligned")) { try TensorFile(path: misaligned) }
        let outside = try broken("outside") { $0[offsetAt + 2] = 1 }
        #expect(throws: TensorFileError.self) { try TensorFile(path: outside) }
        let huge = try broken("huge") { $0[firstDimensionAt + 7] = 0x7F }
        #expect(throws: TensorFileError.self) { try TensorFile(path: huge) }
        let badJSON = try broken("json") { $0[64] = UInt8(ascii: "[") }
        #expect(throws: TensorFileError.self) { try TensorFile(path: badJSON) }
    }

    @Test func rejectsDuplicateAndOverlappingTensors() throws {
        var writer = smallFile()
        writer.tensors[1].name = "a.weight"
        let duplicate = try writer.write(name: "duplicate")
        #expect(throws: TensorFileError.duplicateTensor(file: duplicate, tensor: "a.weight")) { try TensorFile(path: duplicate) }

        var bytes = try smallFile().bytes()
        let tableOffset = Int(bytes[32]) | Int(bytes[33]) << 8
        let secondEntry = tableOffset + (4 + 8 + 4 + 4 + 16 + 16)
        let secondOffsetAt = secondEntry + 4 + 6 + 4 + 4 + 8
        bytes[secondOffsetAt] = 0  // b.bias now starts where a.weight does
        let overlapping = try TemporaryFile.write(bytes, name: "overlap")
        #expect(throws: TensorFileError.self) { try TensorFile(path: overlapping) }
    }

    @Test func missingFileAndDirectoryAreReadErrors() throws {
        #expect(throws: TensorFileError.self) { try TensorFile(path: "/nonexistent/model.swyolo") }
        #expect(throws: TensorFileError.self) { try TensorFile(path: TemporaryFile.directory) }
    }
}
