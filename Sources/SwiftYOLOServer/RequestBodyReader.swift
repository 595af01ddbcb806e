import FoundationEssentials
import Glibc
import HTTPTypes
import Hummingbird
import NIOCore
import YOLOPlatform
import YOLOServing

/// Reads a request body whole, within the server's limits: a declared length over `maxBody` is
/// refused before a byte is read (413), a body that grows past it as soon as it does (413), and a
/// client that has not sent it all within `timeout` gets a 408. After such an answer the rest of
/// the body is read and dropped chunk by chunk (closing a socket with unread data would reset the
/// connection before the client reads the answer); a client that then stays quiet is disconnected
/// (Hummingbird's idle timeout, twice the read timeout).
///
/// A body in a coding the server does not undo is refused before it is read, rather than handed to
/// the decoder as if it were the image: a content coding (`Content-Encoding: gzip`) with 415 (RFC
/// 9110 §15.5.16), a transfer coding other than `chunked` (which NIO undoes) with 501 (RFC 9112 §6.1).
struct RequestBodyReader: Sendable {
    let maxBody: Int
    let timeout: Duration

    private struct TimedOut: Error {}

    func read(_ request: Request, context: BasicRequestContext) async throws(RequestError) -> [UInt8] {
        try Self.checkCodings(request.headers)
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > maxBody {
            throw RequestError(status: 413, "the body has \(declared) bytes; the limit is \(maxBody) (serve --max-body)")
        }
        let body = request.body, maxBody = maxBody, timeout = timeout
        do {
            let buffer = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { try await body.collect(upTo: maxBody) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let buffer = first else { throw TimedOut() }
                return buffer
            }
            return Array(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw RequestError(status: 413, "the body is over the limit of \(maxBody) bytes (serve --max-body)")
        } catch is TimedOut {
            throw RequestError(status: 408, "the body did not arrive within \(timeout) (serve --read-timeout)")
        } catch {
            throw RequestError.badRequest("the body could not be read: \(error)")
        }
    }

    /// Throws for a content coding other than `identity` or a transfer coding other than `chunked`.
    static func checkCodings(_ headers: HTTPFields) throws(RequestError) {
        func codings(_ name: HTTPField.Name) -> [String] {
            headers[values: name].flatMap { $0.split(separator: ",") }
                .map { $0.trimmingWhitespace().lowercased() }.filter { !$0.isEmpty }
        }
        if let coding = codings(.contentEncoding).first(where: { $0 != "identity" }) {
            throw RequestError(status: 415, "the body's content coding '\(coding)' is not supported: send it without Content-Encoding")
        }
        if let coding = codings(.transferEncoding).first(where: { $0 != "chunked" }) {
            throw RequestError(status: 501, "the transfer coding '\(coding)' is not implemented: only chunked is")
        }
    }
}
