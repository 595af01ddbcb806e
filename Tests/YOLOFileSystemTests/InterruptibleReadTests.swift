import Foundation
import Testing
import YOLOFileSystem

/// `Interruption.read`, the one read of standard input and video streams: bytes as they come, the
/// end of the input, and an error by its errno. (An interrupt sets a flag for the whole process;
/// the command-line tests send real signals to `swift-yolo` instead.)
@Suite struct InterruptibleReadTests {
    @Test func bytesThenTheEndOfAPipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let sent: [UInt8] = [1, 2, 3, 4, 5]
        #expect(sent.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == sent.count)
        close(ends[1])

        var received = [UInt8](repeating: 0, count: 16)
        let first = received.withUnsafeMutableBytes { Interruption.read(ends[0], into: $0.baseAddress!, count: $0.count) }
        #expect(first == .bytes(sent.count))
        #expect(Array(received[..<sent.count]) == sent)
        let second = received.withUnsafeMutableBytes { Interruption.read(ends[0], into: $0.baseAddress!, count: $0.count) }
        #expect(second == .end)
    }

    @Test func anErrorIsItsErrno() {
        var byte: UInt8 = 0
        #expect(Interruption.read(-1, into: &byte, count: 1) == .failed(errno: EBADF))
    }
}
