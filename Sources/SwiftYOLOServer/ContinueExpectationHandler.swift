import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers a request head that carries `Expect: 100-continue` with `100 Continue` as soon as it is
/// that request's turn to be answered, so that a client waiting for it before sending its body (curl
/// does for bodies over 1 MB) sends the body at once (RFC 9110 §10.1.1), instead of waiting about a
/// second for an answer that never came, or for its whole read timeout. The final answer follows as
/// for any request (a 413 for a declared length over the limit, which the client then stops sending).
///
/// Its turn: answers go out in the order the requests came (RFC 9112 §9.3.2), so behind a pipelined
/// request still being answered the interim answer waits until that answer has ended; written at
/// once, it came before the earlier request's answer, which a client reading in order took for its
/// own.
///
/// In the HTTP/1 pipeline after the conversion to HTTP types (Hummingbird's additional channel
/// handlers): the interim head is written from here, in front of the connection's state handler,
/// which sees only the final responses, and those pass through here on their way out.
final class ContinueExpectationHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// For each request read whose final answer has not ended, oldest first: whether it still
    /// waits for its `100 Continue`.
    private var unanswered: [Bool] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case let .head(request) = unwrapInboundIn(data) {
            unanswered.append(request.headerFields[.expect].map { $0.lowercased() == "100-continue" } == true)
            if unanswered.count == 1 { continueIfAwaited(context: context) }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let ends = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        guard ends, !unanswered.isEmpty else { return }
        unanswered.removeFirst()
        continueIfAwaited(context: context)
    }

    /// Writes `100 Continue` for the request now being answered, if it waits for one.
    private func continueIfAwaited(context: ChannelHandlerContext) {
        guard unanswered.first == true else { return }
        unanswered[0] = false
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
    }
}
