import Foundation
import YOLOModel
import TestSupport

/// Writes tensor files in the documented format (`docs/weight-file.md`), so tests can build valid
/// files and then break them one field at a time. The product's writer is `tools/swyolo_file.py`.
struct TensorFileWriter {
    var metadata: JSONValue
    var tensors: [(name: String, shape: [Int], values: [Float])]

    /// The tensors and metadata of an existing file.
    init(copying file: TensorFile) {
        metadata = file.metadata
        tensors = file.entries.map { ($0.name, $0.shape, file.tensor($0).values) }
    }

    init(metadata: JSONValue, tensors: [(name: String, shape: [Int], values: [Float])]) {
        self.metadata = metadata
        self.tensors = tensors
    }

    func bytes() throws -> [UInt8] {
        let json = Array(try JSONEncoder().encode(metadata))
        var table: [UInt8] = []
        var data: [UInt8] = []
        for tensor in tensors {
            let name = Array(tensor.name.utf8)
            table += le(UInt32(name.count)) + name + le(UInt32(0)) + le(UInt32(tensor.shape.count))
            for dimension in tensor.shape { table += le(UInt64(dimension)) }
            table += le(UInt64(data.count)) + le(UInt64(tensor.values.count * 4))
            tensor.values.withUnsafeBytes { data += $0 }  // float32, little-endian on every host Swift runs on here
            data += [UInt8](repeating: 0, count: (64 - data.count % 64) % 64)
        }
        let tableOffset = 64 + json.count
        let dataOffset = (tableOffset + table.count + 63) / 64 * 64
        var header = Array("SWYOLOTF".utf8) + le(UInt32(1)) + le(UInt32(tensors.count))
        header += le(UInt64(64)) + le(UInt64(json.count)) + le(UInt64(tableOffset)) + le(UInt64(table.count))
        header += le(UInt64(dataOffset)) + le(UInt64(data.count))
        let padding = [UInt8](repeating: 0, count: dataOffset - tableOffset - table.count)
        return header + json + table + padding + data
    }

    /// Writes the file to a fresh temporary path and returns it.
    func write(name: String = "test") throws -> String {
        try TemporaryFile.write(bytes(), name: name)
    }

    private func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}

enum TemporaryFile {
    static var directory: String { ScratchDirectory.path }

    static func write(_ bytes: [UInt8], name: String) throws -> String {
        try ScratchDirectory.write(bytes, to: "\(name)-\(UUID().uuidString.prefix(8)).swyolo")
    }
}
