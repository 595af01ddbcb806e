import Hummingbird
import YOLOServing

/// A request for a known path with a method it does not take gets 405 with `Allow` (Hummingbird's
/// router would answer 404, as for a path that does not exist), and one for a path no route has a
/// 404 with a JSON error, as every other refusal (the router's has no body).
struct AllowedMethodsMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    /// Each route's path pattern, split into segments (`{name}` matches any one segment).
    private let routes: [(method: HTTPRequest.Method, segments: [Substring])]

    init(routes: [(method: HTTPRequest.Method, path: String)]) {
        self.routes = routes.map { ($0.method, $0.path.split(separator: "/")) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            guard response.status == .notFound, Self.noRouteMatched(context) else { return response }
            return refusal(request)
        } catch let error as HTTPError where error.status == .notFound {
            guard Self.noRouteMatched(context) else { throw error }
            return refusal(request)
        }
    }

    /// Whether the router found no route for the request: a 404 from a route (an unknown model, say)
    /// is that route's answer and passes through.
    private static func noRouteMatched(_ context: Context) -> Bool {
        context.endpointPath == nil || context.endpointPath == "NotFound"
    }

    /// 405 or 404; to HEAD, its head alone (a body there would be read as the next answer's start).
    private func refusal(_ request: Request) -> Response {
        let response = allowed(request) ?? notFound(request)
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// 404 with a JSON error naming the path.
    private func notFound(_ request: Request) -> Response {
        Response(status: .notFound, headers: [.contentType: "application/json"],
                 body: .init(byteBuffer: ByteBuffer(string: "{\"error\": \(ResultJSON.string("no route for \(request.uri.path)"))}\n")))
    }

    /// 405 with the methods of `request`'s path, or `nil` if no route has its path.
    private func allowed(_ request: Request) -> Response? {
        let segments = request.uri.path.split(separator: "/")
        let methods = routes.filter { route in
            route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { pattern, segment in pattern.hasPrefix("{") || pattern == segment }
        }.map(\.method)
        guard !methods.isEmpty, !methods.contains(request.method) else { return nil }
        let allow = methods.map(\.rawValue).joined(separator: ", ")
        return Response(status: .methodNotAllowed, headers: [.allow: allow, .contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(string: "{\"error\": \"\(request.method.rawValue) is not allowed here; use \(allow)\"}\n")))
    }
}
