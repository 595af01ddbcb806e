import Foundation
import Testing
import YOLOModel

/// The tensor-file reader's limits (`TensorFile.Limits`) and the weights fuzz target's findings:
/// a refusal states the limit it hit and names the file; every input the fuzzer has kept
/// (Fuzz/Corpus/weights) opens or is refused with a `TensorFileError`.
@Suite struct TensorFileLimitTests {
    static let threeTensors = TensorFileWriter(metadata: .object(["kind": .string("weights")]), tensors: [
        ("a.weight", [2, 3], [1, 2, 3, 4, 5, 6]),
        ("b.bias", [5], [0.5, -1, 2, 3, 4]),
        ("scalar", [], [7]),
    ])

    @Test func tensorCountLimit() throws {
        let path = try Self.threeTensors.write(name: "count")
        #expect(throws: TensorFileError.limitExceeded(file: path, what: "3 tensors",
                                                      limit: "2 tensors (TensorFile.Limits.maxTensorCount)")) {
            try TensorFile(path: path, limits: .init(maxTensorCount: 2))
        }
        #expect(try TensorFile(path: path, limits: .init(maxTensorCount: 3)).entries.count == 3)
        do {
            _ = try TensorFile(path: path, limits: .init(maxTensorCount: 2))
        } catch {
            #expect("\(error)" == "\(path): 3 tensors exceeds the limit of 2 tensors (TensorFile.Limits.maxTensorCount)")
        }
    }

    @Test func metadataSizeLimit() throws {
        let path = try Self.threeTensors.write(name: "metadata")
        let length = try JSONEncoder().encode(Self.threeTensors.metadata).count
        #expect(throws: TensorFileError.limitExceeded(file: path, what: "metadata of \(length) bytes",
                                                      limit: "10 bytes (TensorFile.Limits.maxMetadataBytes)")) {
            try TensorFile(path: path, limits: .init(maxMetadataBytes: 10))
        }
    }

    /// Fuzzing finding: a header field over 2^62 was reported as "<empty file name>: corrupt header:
    /// truncated" (the reader's default error had no file name).
    @Test func headerFieldOutOfRangeNamesTheFileAndTheField() throws {
        var bytes = try Self.threeTensors.bytes()
        for (offset, field) in [(24, "metadata length"), (40, "tensor table length"), (56, "data length")] {
            var broken = bytes
            broken.replaceSubrange(offset..<(offset + 8), with: [UInt8](repeating: 0xFF, count: 8))
            let path = try TemporaryFile.write(broken, name: "field")
            #expect(throws: TensorFileError.corruptHeader(file: path, reason: "\(field) is out of range")) {
                try TensorFile(path: path)
            }
        }
        bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Fuzz/Corpus/weights/regression-header-field-range"))))
        let path = try TemporaryFile.write(bytes, name: "regression")
        do {
            _ = try TensorFile(path: path)
            Issue.record("the fuzzer's input opened")
        } catch {
            #expect("\(error)".hasPrefix(path + ": "), "\(error)")
        }
    }

    /// The weights fuzz target's corpus, findings included.
    @Test func fuzzCorpusOpensOrIsRefused() throws {
        let directory = Fixtures.path("Fuzz/Corpus/weights")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names.contains { $0.hasPrefix("regression-") })
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
            let path = try TemporaryFile.write(bytes, name: "corpus")
            do {
                let file = try TensorFile(path: path)
                for entry in file.entries { _ = file.tensor(entry).values }
            } catch let error as TensorFileError {
                #expect("\(error)".hasPrefix(path + ": "), "\(name): \(error)")
            }
        }
    }
}
