import Prometheus
import SwiftYOLO
import Synchronization

/// The server's Prometheus metrics (`GET /metrics`): requests by route and status, the latency of
/// each request and of each stage of its detection, the queue.
package final class ServerMetrics: Sendable {
    package let registry = PrometheusCollectorRegistry()
    private let queueDepth: Gauge
    private let inFlight: Gauge
    private let decode: DurationHistogram, preprocess: DurationHistogram, inference: DurationHistogram, postprocess: DurationHistogram
    /// Requests that reached the routes, and those answered, since the start (`requestTotals`).
    private let received = Atomic<Int>(0), answered = Atomic<Int>(0)
    /// Seconds, from 5 ms to 10 s: a forward pass takes tens of milliseconds, a queued request more.
    private static let buckets: [Duration] = [5, 10, 25, 50, 75, 100, 150, 250, 500, 1000, 2500, 5000, 10_000].map { .milliseconds($0) }

    package init() {
        let registry = self.registry
        queueDepth = registry.makeGauge(descriptor: .init(namespace: "swiftyolo", metricName: "queue_depth", unitName: "requests",
                                                          helpText: "Requests waiting for an inference worker."))
        inFlight = registry.makeGauge(descriptor: .init(namespace: "swiftyolo", metricName: "inferences_in_flight", unitName: "requests",
                                                        helpText: "Detections running now."))
        func stage(_ name: String) -> DurationHistogram {
            registry.makeDurationHistogram(
                descriptor: .init(namespace: "swiftyolo", metricName: "stage_duration", unitName: "seconds",
                                  helpText: "Time of one stage of a detection: decode, preprocess, inference (the forward pass), postprocess."),
                labels: [("stage", name)], buckets: Self.buckets)
        }
        decode = stage("decode")
        preprocess = stage("preprocess")
        inference = stage("inference")
        postprocess = stage("postprocess")
    }

    /// Counts a request that reached the routes (its head read), before it is answered.
    package func recordReceived() {
        received.add(1, ordering: .relaxed)
    }

    /// Counts a request of `route` answered with `status`, and its duration.
    package func recordRequest(route: String, status: Int, duration: Duration) {
        answered.add(1, ordering: .relaxed)
        registry.makeCounter(descriptor: .init(namespace: "swiftyolo", metricName: "http_requests", unitName: "total",
                                               helpText: "HTTP requests by route and status."),
                             labels: [("route", route), ("status", String(status))]).increment()
        registry.makeDurationHistogram(descriptor: .init(namespace: "swiftyolo", metricName: "http_request_duration", unitName: "seconds",
                                                         helpText: "Time from a request's head to its answer, by route."),
                                       labels: [("route", route)], buckets: Self.buckets).record(duration)
    }

    /// Records the stages of one detection.
    package func recordStages(_ timings: StageTimings) {
        decode.record(timings.decode)
        preprocess.record(timings.preprocess)
        inference.record(timings.inference)
        postprocess.record(timings.postprocess)
    }

    /// The queue's state, as `InferenceQueue` reports it.
    package func recordQueue(waiting: Int, running: Int) {
        queueDepth.set(Double(waiting))
        inFlight.set(Double(running))
    }

    /// Requests received and answered so far: equal once the server has stopped gracefully, every
    /// request it read answered (`swift-yolo serve`'s last line says so).
    package var requestTotals: (received: Int, answered: Int) {
        (received.load(ordering: .relaxed), answered.load(ordering: .relaxed))
    }

    /// The Prometheus text exposition of every metric.
    package func exposition() -> [UInt8] { registry.emitToBuffer() }
}
