import Hummingbird

/// Counts every request as it arrives, and again by route (the matched pattern, e.g.
/// `/v2/models/{name}/infer`, so that the label set stays bounded; Hummingbird names a request no
/// route matched `NotFound`) and status once answered, and times it.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        metrics.recordReceived()
        do {
            let response = try await next(request, context)
            metrics.recordRequest(route: context.endpointPath ?? "unmatched", status: Int(response.status.code), duration: .now - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.recordRequest(route: context.endpointPath ?? "unmatched", status: Int(status), duration: .now - start)
            throw error
        }
    }
}
