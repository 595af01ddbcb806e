import Foundation
import SwiftYOLOServer
import YOLOServing
#if canImport(Glibc)
import Glibc
#endif

/// A client that writes exactly the bytes a test gives it (a slow client, a lying Content-Length,
/// a truncated body) and reads the answer: HTTP/1.1 over a loopback socket.
struct RawHTTPClient: Sendable {
    struct Answer: Sendable {
        var status: Int
        var headers: [String: String]  // names lowercased
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    let port: Int

    /// Sends `head` (CRLF line ends are added) and `body`, in `pieces` with `pause` between them,
    /// then reads the answer (at most `timeout` per read): the final one, past any interim (1xx)
    /// answers, unless `interim`. The socket is used from a thread of its own: blocking a thread of
    /// Swift concurrency would starve the in-process server of the threads its handlers run on.
    func send(_ head: [String], body: [UInt8] = [], pieces: Int = 1, pause: Duration = .zero,
              timeout: Duration = .seconds(30), interim: Bool = false) async throws -> Answer {
        try await ThreadHandoff.await { deliver in
            Thread.detachNewThread {
                deliver(Result { try exchange(head, body: body, pieces: pieces, pause: pause, timeout: timeout, interim: interim) })
            }
        }
    }

    private func exchange(_ head: [String], body: [UInt8], pieces: Int, pause: Duration, timeout: Duration,
                          interim: Bool) throws -> Answer {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(socket) }
        var seconds = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to port \(port): errno \(errno)") }
        let request = Array((head.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
        let pieceSize = max(1, (request.count + pieces - 1) / pieces)
        var offset = 0
        while offset < request.count {
            let end = min(request.count, offset + pieceSize)
            // A server that has answered and stopped reading may reset the connection: keep its answer.
            guard write(socket, Array(request[offset..<end])) else { break }
            offset = end
            if pause > .zero, offset < request.count {
                Thread.sleep(forTimeInterval: Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)
            }
        }
        do {
            return try readAnswer(socket, interim: interim, bodiless: head.first?.hasPrefix("HEAD ") == true)
        } catch {
            throw Failure(description: "\(head.first ?? "") (\(head.first { $0.hasPrefix("Content-") } ?? "")): \(error)")
        }
    }

    private func write(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            written += n
        }
        return true
    }

    /// The answer; `bodiless` for one to HEAD, whose Content-Length is the GET answer's and no body follows.
    private func readAnswer(_ socket: Int32, interim: Bool, bodiless: Bool) throws -> Answer {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let (answer, length) = parse(received, bodiless: bodiless) {
                guard !interim, (100..<200).contains(answer.status) else { return answer }
                received.removeFirst(length)
                continue
            }
            let n = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard n > 0 else {
                if let (answer, _) = parse(received, bodiless: bodiless) { return answer }
                throw Failure(description: "the connection ended after \(received.count) bytes without a whole answer (errno \(n < 0 ? errno : 0))")
            }
            received += chunk[0..<n]
        }
    }

    /// The first answer once its head and Content-Length bytes of body have arrived, and its length in bytes.
    private func parse(_ bytes: [UInt8], bodiless: Bool) -> (Answer, Int)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = lines.first, statusLine.count >= 12, let status = Int(statusLine.dropFirst(9).prefix(3)) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = bodiless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        guard bytes.count - end - 4 >= length else { return nil }
        return (Answer(status: status, headers: headers, body: Array(bytes[(end + 4)..<(end + 4 + length)])), end + 4 + length)
    }
}
