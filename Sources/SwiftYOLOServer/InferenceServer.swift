import FoundationEssentials
import Glibc
import Hummingbird
import Logging
import NIOCore
import SwiftYOLO
import YOLOServing

/// `swift-yolo serve`: detection over HTTP, on Hummingbird.
///
/// - `POST /v1/detect`: a JPEG or PNG body (or a `multipart/form-data` file part); the answer is
///   the object `detect --json` prints for the image.
/// - The KServe Open Inference Protocol v2: `GET /v2/health/live`, `/v2/health/ready`,
///   `/v2/models/{name}`, `/v2/models/{name}/ready`, and `POST /v2/models/{name}/infer`.
/// - `GET /metrics`: Prometheus.
///
/// Query parameters (and a KServe request's `parameters`) override the detection options per
/// request (`RequestOptions`). Detections run on `InferenceQueue`'s threads; a full queue is a 503
/// with `Retry-After` at once. No request can make the server read a file.
package struct InferenceServer: Sendable {
    package let detector: Detector
    package let configuration: ServerConfiguration
    package let metrics: ServerMetrics
    let queue: InferenceQueue
    let bodyReader: RequestBodyReader

    /// Throws where the system refuses a worker's thread (`InferenceQueue.init`).
    package init(detector: Detector, configuration: ServerConfiguration) throws {
        let metrics = ServerMetrics()
        self.detector = detector
        self.configuration = configuration
        self.metrics = metrics
        queue = try InferenceQueue(workers: configuration.workers, maxQueue: configuration.maxQueue,
                               onChange: { metrics.recordQueue(waiting: $0, running: $1) })
        bodyReader = RequestBodyReader(maxBody: configuration.maxBody, timeout: configuration.readTimeout)
    }

    /// Every route, behind the metrics; every GET route answers HEAD too, with its headers and no
    /// body (RFC 9110 §9.3.2).
    package func router() -> Router<BasicRequestContext> {
        let routes = self.routes()
        let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        let methods = routes.flatMap { route in (route.method == .get ? [.get, .head] : [route.method]).map { ($0, route.path) } }
        router.add(middleware: AllowedMethodsMiddleware(routes: methods))
        for route in routes { router.on(RouterPath(route.path), method: route.method, use: route.handler) }
        return router
    }

    private typealias Handler = @Sendable (Request, BasicRequestContext) async throws -> Response

    /// Every route: method, path pattern, handler.
    private func routes() -> [(method: HTTPRequest.Method, path: String, handler: Handler)] {
        [
            (.post, "/v1/detect", { request, context in await detect(request, context: context) }),
            (.get, "/v2", { _, _ in json(.ok, "{\"name\": \"swift-yolo\", \"extensions\": []}") }),
            (.get, "/v2/health/live", { _, _ in json(.ok, "{\"live\": true}") }),
            // The model is loaded and warmed up before the server listens.
            (.get, "/v2/health/ready", { _, _ in json(.ok, "{\"ready\": true}") }),
            (.get, "/v2/models/{name}", { _, context in
                withModel(context) {
                    json(.ok, InferenceProtocol.metadata(modelName: configuration.modelName, task: detector.model.task.rawValue,
                                                         classNames: detector.labels.names))
                }
            }),
            (.get, "/v2/models/{name}/ready", { _, context in
                withModel(context) { json(.ok, "{\"name\": \(ResultJSON.string(configuration.modelName)), \"ready\": true}") }
            }),
            (.post, "/v2/models/{name}/infer", { request, context in
                guard context.parameters.get("name") == configuration.modelName else { return unknownModel(context) }
                return await infer(request, context: context)
            }),
            (.get, "/metrics", { _, _ in
                Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                         body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
            }),
        ]
    }

    /// Runs one detection first (so that `/v2/health/ready` is true from the first request), then
    /// serves until SIGTERM or SIGINT: it stops accepting, answers the requests it has, and returns.
    /// - Parameter onListening: called with the port once the server listens (the one taken for port 0).
    package func run(onListening: @escaping @Sendable (Int) -> Void) async throws {
        try await application(onListening: onListening).runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    /// Why the server could not listen on its address, where `error` says: the system refused the
    /// socket (`Address already in use`, `Cannot assign requested address`) or the host is not an
    /// address; `nil` for any other error.
    package static func listeningFailure(_ error: any Error) -> String? {
        switch error {
        case let error as IOError: String(cString: strerror(error.errnoCode))
        case let error as SocketAddressError.UnknownHost: "'\(error.host)' is not a known host (\(error.errorDescription))"
        case let error as SocketAddressError:
            switch error {
            case let .unknown(host, _): "'\(host)' is not a known host"
            case let .failedToParseIPString(address): "'\(address)' is not an IP address"
            default: "\(error)"
            }
        default: nil
        }
    }

    /// The server as a service (it stops when its task is cancelled), after one warm-up detection.
    package func application(onListening: @escaping @Sendable (Int) -> Void) async throws -> some ApplicationProtocol {
        let gray = [UInt8](repeating: 114, count: 64 * 64 * 3)
        _ = try await queue.submit { [detector] in try detector.detect(pixels: gray, width: 64, height: 64) }
        return Application(
            router: router(),
            // Idle connections close after twice the read timeout, so that a client too slow with its
            // body gets its 408 (at one read timeout) before its connection closes.
            server: .http1(configuration: .init(additionalChannelHandlers: [ContinueExpectationHandler()],
                                                idleTimeout: .nanoseconds((configuration.readTimeout * 2).nanoseconds))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "swift-yolo"),
            onServerRunning: { [configuration] channel in onListening(channel.localAddress?.port ?? configuration.port) },
            logger: Self.quietLogger)
    }

    // MARK: Routes

    private func detect(_ request: Request, context: BasicRequestContext) async -> Response {
        var name: String?
        do {
            let options = try requestOptions(RequestOptions.parameters(query: request.uri.query ?? ""))
            let upload = try await ImageUpload.read(request, context: context, reader: bodyReader)
            name = upload.name
            let result = try await run(upload.bytes, name: upload.name, options: options)
            return json(.ok, ResultJSON.line(image: upload.name, result: result))
        } catch {
            return failure(error) { ResultJSON.errorLine(image: name, error: $0) }
        }
    }

    private func infer(_ request: Request, context: BasicRequestContext) async -> Response {
        do {
            let mediaType = request.headers[.contentType].map { MediaType.of($0) }
            guard mediaType == nil || mediaType == "application/json" else {
                throw RequestError(status: 415, "unsupported content type '\(request.headers[.contentType] ?? "")': send application/json")
            }
            let body = try await bodyReader.read(request, context: context)
            let inference = try InferenceProtocol.decodeRequest(body)
            let query = RequestOptions.parameters(query: request.uri.query ?? "")
            let options = try requestOptions(query + inference.parameters)
            let result = try await run(inference.image, name: nil, options: options)
            return json(.ok, InferenceProtocol.response(modelName: configuration.modelName, id: inference.id, detections: result.detections))
        } catch {
            return failure(error) { "{\"error\": \(ResultJSON.string("\($0)"))}" }
        }
    }

    // MARK: Detection

    private func requestOptions(_ parameters: [(name: String, value: String)]) throws(RequestError) -> DetectionOptions {
        try RequestOptions.options(parameters, defaults: detector.options, labels: detector.labels)
    }

    /// Decodes and detects on a worker thread; records the stages.
    private func run(_ bytes: [UInt8], name: String?, options: DetectionOptions) async throws -> DetectionResult {
        let detector = detector
        let result = try await queue.submit {
            try detector.run(encoded: bytes, name: name ?? "the uploaded image", options: options)
        }
        metrics.recordStages(result.timings)
        return result
    }

    // MARK: Answers

    private func json(_ status: HTTPResponse.Status, _ text: String, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    /// The answer to an error: its status (400 for the image decoder's and the detector's errors,
    /// 503 with `Retry-After` for a full queue), and `body(error)`.
    private func failure(_ error: any Error, body: (any Error) -> String) -> Response {
        switch error {
        case let error as RequestError:
            return json(HTTPResponse.Status(code: error.status), body(error))
        case is InferenceQueue.Full:
            let message = RequestError(status: 503, "every worker is busy and \(configuration.maxQueue) requests wait (serve --workers, --max-queue); retry later")
            return json(.serviceUnavailable, body(message), headers: [.retryAfter: String(configuration.retryAfterSeconds)])
        case is ImageError, is DetectorError, is DetectError:
            // The model named as clients know it, not by the server's path to its file.
            let message = "\(error)".replacing(detector.model.file, with: configuration.modelName)
            return json(.badRequest, body(RequestError.badRequest(message)))
        default:
            return json(.internalServerError, body(error))
        }
    }

    private func withModel(_ context: BasicRequestContext, _ answer: () -> Response) -> Response {
        context.parameters.get("name") == configuration.modelName ? answer() : unknownModel(context)
    }

    private func unknownModel(_ context: BasicRequestContext) -> Response {
        json(.notFound, InferenceProtocol.error("no model named '\(context.parameters.get("name") ?? "")'; this server has '\(configuration.modelName)'"))
    }

    /// Hummingbird's log at warning level: the server's own output is its one "listening" line.
    private static var quietLogger: Logger {
        var logger = Logger(label: "swift-yolo serve")
        logger.logLevel = .warning
        return logger
    }
}
