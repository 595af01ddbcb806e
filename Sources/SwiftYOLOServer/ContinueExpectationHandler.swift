import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers a request head that carries `Expect: 100-continue` with `100 Continue` as it arrives, so
/// that a client waiting for it before sending its body (curl does for bodies over 1 MB) sends the
/// body at once (RFC 9110 §10.1.1), instead of waiting about a second for an answer that never came,
/// or for its whole read timeout. The final answer follows as for any request (a 413 for a declared
/// length over the limit, which the client then stops sending).
///
/// In the HTTP/1 pipeline after the conversion to HTTP types (Hummingbird's additional channel
/// handlers): the interim head is written from here, in front of the connection's state handler,
/// which sees only the final response.
final class ContinueExpectationHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case let .head(request) = unwrapInboundIn(data),
           request.headerFields[.expect].map({ $0.lowercased() == "100-continue" }) == true {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }
}
