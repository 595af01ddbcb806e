import CFuzzerDriver
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Helpers shared by the fuzz targets: a scratch file for readers that take a path, and a check
/// that turns a broken invariant into a crash libFuzzer records (with the input that caused it).
package enum Fuzz {
    /// Runs libFuzzer with the process's arguments on `testOneInput`, which returns 0 for every input,
    /// and exits with libFuzzer's status: each target's `main`.
    package static func run(_ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> Never {
        exit(sy_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput))
    }

    /// Stops the run as a finding: libFuzzer saves the input as `crash-…`.
    package static func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                             file: StaticString = #fileID, line: UInt = #line) {
        if !condition() {
            FileHandle.standardError.write(Data("fuzz invariant broken at \(file):\(line): \(message())\n".utf8))
            abort()
        }
    }

    /// One file per process, rewritten for every input: in /dev/shm when there is one (no disk I/O).
    package static let scratchPath: String = {
        let directory = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(directory)/swift-yolo-fuzz-\(getpid())"
    }()

    /// Writes `bytes` to `scratchPath` (replacing what was there) and returns the path.
    package static func writeScratch(_ bytes: UnsafeRawBufferPointer) -> String {
        let descriptor = open(scratchPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        check(descriptor >= 0, "cannot create \(scratchPath): \(String(cString: strerror(errno)))")
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count, let base = bytes.baseAddress {
            let n = write(descriptor, base + written, bytes.count - written)
            if n < 0 && errno == EINTR { continue }
            check(n > 0, "cannot write \(scratchPath): \(String(cString: strerror(errno)))")
            written += n
        }
        return scratchPath
    }

    /// Whether `error`'s message names `file` (every error of the readers must).
    package static func names(_ error: any Error, _ file: String) -> Bool { "\(error)".contains(file) }
}

/// Encodes a SwiftYOLO tensor file (docs/weight-file.md) from raw metadata bytes and tensors whose
/// data is given as little-endian float32 bytes, so a fuzz target can vary one part of a valid file.
package enum TensorFileEncoder {
    package struct Tensor: Sendable {
        package let name: String
        package let shape: [Int]
        package let data: [UInt8]
        package init(name: String, shape: [Int], data: [UInt8]) { (self.name, self.shape, self.data) = (name, shape, data) }
    }

    package static func encode(metadata: some Collection<UInt8>, tensors: [Tensor]) -> [UInt8] {
        func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        var table: [UInt8] = [], data: [UInt8] = []
        for tensor in tensors {
            let name = Array(tensor.name.utf8)
            table += le(UInt32(name.count)) + name + le(UInt32(0)) + le(UInt32(tensor.shape.count))
            for dimension in tensor.shape { table += le(UInt64(dimension)) }
            table += le(UInt64(data.count)) + le(UInt64(tensor.data.count))
            data += tensor.data
            data += [UInt8](repeating: 0, count: (64 - data.count % 64) % 64)
        }
        let tableOffset = 64 + metadata.count
        let dataOffset = (tableOffset + table.count + 63) / 64 * 64
        var file = Array("SWYOLOTF".utf8) + le(UInt32(1)) + le(UInt32(tensors.count))
        file += le(UInt64(64)) + le(UInt64(metadata.count)) + le(UInt64(tableOffset)) + le(UInt64(table.count))
        file += le(UInt64(dataOffset)) + le(UInt64(data.count))
        file += metadata
        file += table
        file += [UInt8](repeating: 0, count: dataOffset - tableOffset - table.count)
        return file + data
    }
}
