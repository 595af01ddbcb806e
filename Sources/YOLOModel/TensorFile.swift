import FoundationEssentials
import YOLOFileSystem
#if canImport(Glibc)
import Glibc
#endif

/// One entry of a tensor file's table: where a named float32 tensor lies in the data section.
package struct TensorEntry: Sendable, Equatable {
    package let name: String
    package let shape: [Int]
    /// Byte offset of the first element from the start of the file.
    package let fileOffset: Int
    package var count: Int { shape.reduce(1, *) }
}

/// A memory-mapped SwiftYOLO tensor file (`docs/weight-file.md`): JSON metadata plus a table of
/// 64-byte-aligned little-endian float32 tensors, validated completely on open so that every later
/// access is in bounds. Tensors are used in place, without copying.
package final class TensorFile: @unchecked Sendable {
    package static let magic: [UInt8] = Array("SWYOLOTF".utf8)
    package static let formatVersion: UInt32 = 1
    static let headerSize = 64
    static let maximumRank = 8
    static let maximumNameLength = 1024

    /// The path the file was opened from, as given (used in every error message).
    package let path: String
    package let metadata: JSONValue
    /// The tensors in table order.
    package let entries: [TensorEntry]
    private let index: [String: Int]
    private let mapping: UnsafeMutableRawPointer
    private let mappedLength: Int

    /// Bounds on what a file may ask of the reader before anything is allocated for it. Tensor data
    /// is mapped, not copied, so it needs none; the table and the metadata are parsed into memory.
    package struct Limits: Sendable, Equatable {
        /// Most tensors in the table (yolo11n has 418; each costs an entry and a name).
        package var maxTensorCount: Int
        /// Largest JSON metadata, in bytes (yolo11n's is 4.4 KB; decoding costs a multiple).
        package var maxMetadataBytes: Int

        package init(maxTensorCount: Int = 100_000, maxMetadataBytes: Int = 16 << 20) {
            self.maxTensorCount = maxTensorCount
            self.maxMetadataBytes = maxMetadataBytes
        }
    }

    /// Opens, maps and validates the file at `path`, refusing anything beyond `limits`.
    package init(path: String, limits: Limits = Limits()) throws {
        self.path = path
        let descriptor: Int32, length: Int
        do throws(FileSystemError) {
            (descriptor, length) = try RegularFile.open(path)  // a FIFO or device is refused before any open
        } catch {
            guard case let .unreadable(_, reason) = error else { throw TensorFileError.unreadable(file: path, reason: "\(error)") }
            throw TensorFileError.unreadable(file: path, reason: reason)
        }
        defer { close(descriptor) }
        guard length >= Self.headerSize else {
            if length >= 8, try Self.readPrefix(descriptor, count: 8) != Self.magic {
                throw TensorFileError.notATensorFile(file: path)
            }
            throw TensorFileError.corruptHeader(file: path, reason: "file is \(length) bytes, shorter than the \(Self.headerSize)-byte header")
        }
        guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw TensorFileError.unreadable(file: path, reason: "mmap failed: \(systemErrorDescription())")
        }
        do {
            let bytes = UnsafeRawBufferPointer(start: mapped, count: length)
            let parsed = try Self.parse(bytes, path: path, limits: limits)
            self.metadata = parsed.metadata
            self.entries = parsed.entries
        } catch {
            munmap(mapped, length)
            throw error
        }
        self.mapping = mapped
        self.mappedLength = length
        self.index = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.name, $0) })
    }

    deinit { munmap(mapping, mappedLength) }

    /// The entry named `name`, if the file has one.
    package func entry(named name: String) -> TensorEntry? {
        index[name].map { entries[$0] }
    }

    /// The tensor named `name`, borrowed from the mapping (read-only).
    package func tensor(named name: String) throws -> Tensor {
        guard let entry = entry(named: name) else { throw TensorFileError.missingTensor(file: path, tensor: name) }
        return tensor(entry)
    }

    /// The tensor behind `entry`, borrowed from the mapping (read-only).
    package func tensor(_ entry: TensorEntry) -> Tensor {
        let pointer = (mapping + entry.fileOffset).assumingMemoryBound(to: Float.self)
        return Tensor(borrowing: pointer, shape: entry.shape, keepAlive: self)
    }

    /// The metadata's `kind` (`"weights"` or `"golden"`).
    package var kind: String? { metadata["kind"]?.stringValue }

    /// Throws unless the metadata's `kind` is `expected`.
    package func requireKind(_ expected: String) throws {
        let actual = kind ?? "unknown"
        guard actual == expected else { throw TensorFileError.wrongKind(file: path, expected: expected, actual: actual) }
    }

    // MARK: - Parsing and validation

    private static func readPrefix(_ descriptor: Int32, count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let read = pread(descriptor, &buffer, count, 0)
        return Array(buffer.prefix(max(read, 0)))
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer, path: String, limits: Limits) throws -> (metadata: JSONValue, entries: [TensorEntry]) {
        guard Array(bytes.prefix(8)) == magic else { throw TensorFileError.notATensorFile(file: path) }
        func corrupt(_ reason: String) -> TensorFileError { .corruptHeader(file: path, reason: reason) }
        var header = ByteReader(bytes, position: 8)
        let version = try header.u32(or: corrupt("truncated"))
        guard version == formatVersion else { throw TensorFileError.unsupportedVersion(file: path, version: version) }
        let tensorCount = Int(try header.u32(or: corrupt("truncated")))
        func field(_ name: String) throws -> Int { try header.u64(or: corrupt("\(name) is out of range")) }
        let metadataOffset = try field("metadata offset"), metadataLength = try field("metadata length")
        let tableOffset = try field("tensor table offset"), tableLength = try field("tensor table length")
        let dataOffset = try field("data offset"), dataLength = try field("data length")
        let length = bytes.count
        guard metadataOffset == headerSize else { throw corrupt("metadata offset \(metadataOffset), expected \(headerSize)") }
        guard metadataLength <= length - headerSize else { throw corrupt("metadata length \(metadataLength) runs past the end of the \(length)-byte file") }
        guard tableOffset == metadataOffset + metadataLength else { throw corrupt("tensor table offset \(tableOffset) does not follow the metadata") }
        guard tableLength <= length - tableOffset else { throw corrupt("tensor table length \(tableLength) runs past the end of the file") }
        guard dataOffset % 64 == 0, dataOffset >= tableOffset + tableLength, dataOffset <= length else {
            throw corrupt("data offset \(dataOffset) is not 64-byte aligned after the table, inside the file")
        }
        guard dataLength == length - dataOffset else {
            throw corrupt("data section of \(dataLength) bytes at offset \(dataOffset) does not end at the file's end (\(length) bytes): truncated or padded file")
        }

        guard metadataLength <= limits.maxMetadataBytes else {
            throw TensorFileError.limitExceeded(file: path, what: "metadata of \(metadataLength) bytes", limit: "\(limits.maxMetadataBytes) bytes (TensorFile.Limits.maxMetadataBytes)")
        }
        guard tensorCount <= limits.maxTensorCount else {
            throw TensorFileError.limitExceeded(file: path, what: "\(tensorCount) tensors", limit: "\(limits.maxTensorCount) tensors (TensorFile.Limits.maxTensorCount)")
        }
        let metadata: JSONValue
        do {
            let json = Data(bytes[metadataOffset..<(metadataOffset + metadataLength)])
            metadata = try JSONDecoder().decode(JSONValue.self, from: json)
        } catch {
            throw TensorFileError.corruptMetadata(file: path, reason: "not valid JSON (\(error))")
        }
        guard case .object = metadata else { throw TensorFileError.corruptMetadata(file: path, reason: "not a JSON object") }

        var table = ByteReader(UnsafeRawBufferPointer(rebasing: bytes[tableOffset..<(tableOffset + tableLength)]), position: 0)
        var entries: [TensorEntry] = []
        var seen = Set<String>()
        guard tensorCount <= tableLength / 24 else {
            throw TensorFileError.corruptTensorTable(file: path, reason: "\(tensorCount) tensors cannot fit in a \(tableLength)-byte table")
        }
        entries.reserveCapacity(tensorCount)
        for position in 0..<tensorCount {
            func tableError(_ reason: String) -> TensorFileError {
                .corruptTensorTable(file: path, reason: "entry \(position): \(reason)")
            }
            let nameLength = Int(try table.u32(or: tableError("truncated")))
            guard (1...maximumNameLength).contains(nameLength) else { throw tableError("name length \(nameLength)") }
            let nameBytes = try table.bytes(nameLength, or: tableError("truncated name"))
            guard let name = String(validating: nameBytes, as: UTF8.self) else { throw tableError("name is not UTF-8") }
            func tensorError(_ reason: String) -> TensorFileError { .corruptTensor(file: path, tensor: name, reason: reason) }
            let dtype = try table.u32(or: tableError("truncated"))
            guard dtype == 0 else { throw tensorError("dtype \(dtype) is not float32 (0)") }
            let rank = Int(try table.u32(or: tableError("truncated")))
            guard rank <= maximumRank else { throw tensorError("rank \(rank) exceeds \(maximumRank)") }
            var shape: [Int] = []
            var count = 1
            for _ in 0..<rank {
                let dimension = try table.u64(or: tableError("truncated shape, or a dimension over 2^62"))
                let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
                guard !overflow, product <= length / 4 else { throw tensorError("shape implies more elements than the file holds") }
                shape.append(dimension)
                count = product
            }
            let offset = try table.u64(or: tableError("truncated"))
            let byteLength = try table.u64(or: tableError("truncated"))
            guard byteLength == count * 4 else { throw tensorError("byte length \(byteLength) does not match shape \(shape) (\(count * 4) bytes)") }
            guard offset % 64 == 0 else { throw tensorError("offset \(offset) is not 64-byte aligned") }
            guard offset <= dataLength, byteLength <= dataLength - offset else {
                throw tensorError("bytes \(offset)..<\(offset + byteLength) lie outside the \(dataLength)-byte data section (truncated file?)")
            }
            guard seen.insert(name).inserted else { throw TensorFileError.duplicateTensor(file: path, tensor: name) }
            entries.append(TensorEntry(name: name, shape: shape, fileOffset: dataOffset + offset))
        }
        guard table.isAtEnd else {
            throw TensorFileError.corruptTensorTable(file: path, reason: "\(tableLength - table.position) bytes left after \(tensorCount) entries")
        }
        // Tensors must not overlap: sorted by offset, each ends before the next begins.
        let byOffset = entries.sorted { $0.fileOffset < $1.fileOffset }
        for (previous, next) in zip(byOffset, byOffset.dropFirst()) where previous.fileOffset + previous.count * 4 > next.fileOffset {
            throw TensorFileError.corruptTensor(file: path, tensor: next.name, reason: "overlaps tensor '\(previous.name)'")
        }
        return (metadata, entries)
    }
}

/// Reads little-endian integers from a byte buffer, failing instead of reading past its end.
private struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var position: Int

    init(_ bytes: UnsafeRawBufferPointer, position: Int) {
        self.bytes = bytes
        self.position = position
    }

    var isAtEnd: Bool { position == bytes.count }

    mutating func bytes(_ count: Int, or error: @autoclosure () -> Error) throws -> UnsafeRawBufferPointer {
        guard count <= bytes.count - position else { throw error() }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)])
    }

    mutating func u32(or error: @autoclosure () -> Error) throws -> UInt32 {
        let raw = try bytes(4, or: error())
        return UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))
    }

    /// A u64 that must also fit an `Int`.
    mutating func u64(or error: @autoclosure () -> Error) throws -> Int {
        let raw = try bytes(8, or: error())
        let value = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        guard value <= UInt64(Int.max / 2) else { throw error() }
        return Int(value)
    }
}
