import Foundation
import TestSupport
import Hummingbird
import SwiftYOLO
import Testing
import SwiftYOLOServer
import YOLOServing

/// `swift-yolo serve`'s server in this process, on a free loopback port, with YOLO11n; every route
/// and every refusal the issue lists, through a client that sends exactly the bytes given.
@Suite(.serialized) struct ServerTests {
    static let repository = RepositoryFiles.root
    static let bus = repository + "/../shared/images/bus.jpg"

    /// Runs `body` against a server with `configure`d limits, then stops it.
    static func withServer(_ configure: (inout ServerConfiguration) -> Void = { _ in },
                           _ body: (RawHTTPClient, Detector) async throws -> Void) async throws {
        let detector = try Detector(modelPath: repository + "/Weights/yolo11n.swyolo")
        var configuration = ServerConfiguration(modelName: "yolo11n", workers: 2, maxQueue: 4)
        configuration.port = 0
        configure(&configuration)
        let server = try InferenceServer(detector: detector, configuration: configuration)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = try await server.application { continuation.yield($0) }
        let running = Task { try await app.run() }
        defer { running.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        try await body(RawHTTPClient(port: port), detector)
    }

    static func post(_ path: String, type: String?, body: [UInt8], length: Int? = nil) -> [String] {
        ["POST \(path) HTTP/1.1", "Host: localhost", "Connection: close", "Content-Length: \(length ?? body.count)"]
            + (type.map { ["Content-Type: \($0)"] } ?? [])
    }

    static func get(_ path: String) -> [String] { ["GET \(path) HTTP/1.1", "Host: localhost", "Connection: close"] }

    /// What `detect --json` prints for bus.jpg, without the timings.
    static func expectedJSON(_ detector: Detector, options: DetectionOptions? = nil, name: String?) throws -> String {
        let result = try detector.run(imageAt: bus, options: options)
        return withoutTimings(ResultJSON.line(image: name, result: result))
    }

    static func withoutTimings(_ line: String) -> String {
        line.replacingOccurrences(of: #""timing_ms": \{[^}]*\}"#, with: "", options: .regularExpression)
    }

    @Test func v1DetectAnswersTheCLIsObject() async throws {
        let image = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.bus)))
        try await Self.withServer { client, detector in
            let raw = try await client.send(Self.post("/v1/detect", type: "image/jpeg", body: image), body: image)
            #expect(raw.status == 200 && raw.headers["content-type"] == "application/json")
            #expect(Self.withoutTimings(raw.text.trimmingCharacters(in: .newlines)) == (try Self.expectedJSON(detector, name: nil)))

            // A multipart upload names the image; query parameters override the options.
            let form = Array("--xx\r\nContent-Disposition: form-data; name=\"image\"; filename=\"bus.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
                + image + Array("\r\n--xx--\r\n".utf8)
            let multipart = try await client.send(Self.post("/v1/detect?conf=0.5&classes=person", type: "multipart/form-data; boundary=xx", body: form), body: form)
            var options = detector.options
            options.confidenceThreshold = 0.5
            options.classes = [0]
            #expect(multipart.status == 200)
            #expect(Self.withoutTimings(multipart.text.trimmingCharacters(in: .newlines)) == (try Self.expectedJSON(detector, options: options, name: "bus.jpg")))
        }
    }

    /// A file name is only a name: a multipart upload naming a server-side path is detected in the
    /// uploaded bytes, and the name comes back as given.
    @Test func aFileNameNeverReadsAServerSideFile() async throws {
        try await Self.withServer { client, _ in
            let form = Array("--xx\r\nContent-Disposition: form-data; name=\"image\"; filename=\"\(Self.bus)\"\r\n\r\n".utf8)
                + Array("not an image".utf8) + Array("\r\n--xx--\r\n".utf8)
            let answer = try await client.send(Self.post("/v1/detect", type: "multipart/form-data; boundary=xx", body: form), body: form)
            #expect(answer.status == 400 && answer.text.contains("\"image\": \"\(Self.bus)\"") && answer.text.contains("not a PNG or JPEG"))
        }
    }

    @Test func kserveInferAnswersTheDetectionsAsAnNBy6Tensor() async throws {
        let image = try Data(contentsOf: URL(fileURLWithPath: Self.bus))
        try await Self.withServer { client, detector in
            let request = Array("{\"id\": \"a\", \"inputs\": [{\"name\": \"image\", \"shape\": [1], \"datatype\": \"BYTES\", \"data\": [\"\(image.base64EncodedString())\"]}]}".utf8)
            let answer = try await client.send(Self.post("/v2/models/yolo11n/infer", type: "application/json", body: request), body: request)
            #expect(answer.status == 200)
            let expected = try detector.detect(imageAt: Self.bus)
            #expect(answer.text.trimmingCharacters(in: .newlines) == InferenceProtocol.response(modelName: "yolo11n", id: "a", detections: expected))

            let unknown = try await client.send(Self.post("/v2/models/yolo99/infer", type: "application/json", body: request), body: request)
            #expect(unknown.status == 404 && unknown.text.contains("no model named 'yolo99'"))
        }
    }

    @Test func healthMetadataAndMetricsAnswer() async throws {
        try await Self.withServer { client, _ in
            #expect(try await client.send(Self.get("/v2/health/live")).status == 200)
            #expect(try await client.send(Self.get("/v2/health/ready")).text.contains("\"ready\": true"))
            let metadata = try await client.send(Self.get("/v2/models/yolo11n"))
            #expect(metadata.status == 200 && metadata.text.contains("\"name\": \"yolo11n\"") && metadata.text.contains("\"task\": \"detect\""))
            #expect(try await client.send(Self.get("/v2/models/other")).status == 404)
            #expect(try await client.send(Self.get("/nowhere")).status == 404)
            let wrongMethod = try await client.send(["DELETE /v2/models/yolo11n HTTP/1.1", "Host: localhost", "Connection: close"])
            #expect(wrongMethod.status == 405 && wrongMethod.headers["allow"] == "GET, HEAD")
            #expect(try await client.send(Self.get("/v1/detect")).headers["allow"] == "POST")
            let metrics = try await client.send(Self.get("/metrics"))
            #expect(metrics.status == 200 && metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
            #expect(metrics.text.contains(#"swiftyolo_http_requests_total{route="/v2/models/{name}",status="200"} 1"#))
            #expect(metrics.text.contains(#"swiftyolo_http_requests_total{route="NotFound",status="404"} 1"#))
            #expect(metrics.text.contains("swiftyolo_stage_duration_seconds_bucket{stage=\"inference\""))
            #expect(metrics.text.contains("swiftyolo_queue_depth_requests 0"))
        }
    }

    @Test func badRequestsGetTheirStatusAndTheServerGoesOn() async throws {
        let image = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.bus)))
        try await Self.withServer({ $0.readTimeout = .seconds(1) }) { client, _ in
            // Garbage: the decoder's message.
            let garbage = Array("this is not an image".utf8)
            let refused = try await client.send(Self.post("/v1/detect", type: "image/jpeg", body: garbage), body: garbage)
            #expect(refused.status == 400 && refused.text.contains("\"error\"") && refused.text.contains("image"))
            // A truncated JPEG.
            let truncated = Array(image.prefix(image.count / 3))
            let cut = try await client.send(Self.post("/v1/detect", type: "image/jpeg", body: truncated), body: truncated)
            #expect(cut.status == 400)
            // A 60 MB body is refused from its Content-Length, before it is sent.
            let huge = try await client.send(Self.post("/v1/detect", type: "image/jpeg", body: [], length: 60 << 20))
            #expect(huge.status == 413 && huge.text.contains("limit"))
            // The wrong type.
            let text = try await client.send(Self.post("/v1/detect", type: "text/plain", body: garbage), body: garbage)
            #expect(text.status == 415)
            #expect(try await client.send(Self.post("/v2/models/yolo11n/infer", type: "image/png", body: garbage), body: garbage).status == 415)
            // A body in a coding the server does not undo: the status that says so, not the decoder's message.
            let compressed = try await client.send(Self.post("/v1/detect", type: "image/jpeg", body: image) + ["Content-Encoding: gzip"], body: image)
            #expect(compressed.status == 415 && compressed.text.contains("content coding 'gzip'"), "\(compressed.text)")
            let chunks = Array("\(String(image.count, radix: 16))\r\n".utf8) + image + Array("\r\n0\r\n\r\n".utf8)
            let transferCoded = try await client.send(["POST /v2/models/yolo11n/infer HTTP/1.1", "Host: localhost", "Connection: close",
                                                       "Content-Type: application/json", "Transfer-Encoding: gzip, chunked"], body: chunks)
            #expect(transferCoded.status == 501 && transferCoded.text.contains("transfer coding 'gzip'"), "\(transferCoded.text)")
            // A bad option.
            #expect(try await client.send(Self.post("/v1/detect?conf=2", type: "image/jpeg", body: image), body: image).status == 400)
            // Names are percent-decoded and `+` is a space, as Python's requests encodes a form (both were refused).
            let encoded = try await client.send(Self.post("/v1/detect?%63onf=0.5&classes=stop+sign,bus", type: "image/jpeg", body: image), body: image)
            #expect(encoded.status == 200 && encoded.text.contains("\"label\": \"bus\""), "\(encoded.text)")
            // A side `detect --imgsz` refuses (this answered 200 with no detections).
            let tiny = try await client.send(Self.post("/v1/detect?imgsz=1", type: "image/jpeg", body: image), body: image)
            #expect(tiny.status == 400 && tiny.text.contains("imgsz: 1 is not in 32…16384"), "\(tiny.text)")
            // The detector's refusal names the model as clients know it, not the server's path to its file.
            let end2end = try await client.send(Self.post("/v1/detect?end2end=true", type: "image/jpeg", body: image), body: image)
            #expect(end2end.status == 400 && end2end.text.contains("yolo11n") && !end2end.text.contains("/Weights/"), "\(end2end.text)")
            // A slow client: half the body, then silence past the read timeout.
            let slow = try await client.send(Self.post("/v1/detect", type: "image/jpeg", body: image), body: Array(image.prefix(1000)), timeout: .seconds(10))
            #expect(slow.status == 408)
            // Still serving.
            #expect(try await client.send(Self.post("/v1/detect", type: "image/jpeg", body: image), body: image).status == 200)
        }
    }

    /// HEAD is answered wherever GET is, with GET's headers and no body; a path no route has gets a
    /// JSON 404, a known path another method a JSON 405 listing HEAD beside GET; to HEAD, their heads.
    @Test func headAndRefusedRoutesAnswerAsTheContractSays() async throws {
        try await Self.withServer { client, _ in
            for path in ["/v2/health/live", "/v2/health/ready", "/v2/models/yolo11n", "/metrics"] {
                let get = try await client.send(Self.get(path))
                let head = try await client.send(["HEAD \(path) HTTP/1.1", "Host: localhost", "Connection: close"])
                #expect(head.status == 200 && head.body.isEmpty, "HEAD \(path): \(head.status)")
                #expect(head.headers["content-type"] == get.headers["content-type"])
                if path != "/metrics" { #expect(head.headers["content-length"] == String(get.body.count)) }
            }
            let missing = try await client.send(Self.get("/v2/nope"))
            #expect(missing.status == 404 && missing.text == "{\"error\": \"no route for /v2/nope\"}\n", "\(missing.text)")
            let wrongMethod = try await client.send(["DELETE /v2/health/live HTTP/1.1", "Host: localhost", "Connection: close"])
            #expect(wrongMethod.status == 405 && wrongMethod.headers["allow"] == "GET, HEAD" && wrongMethod.text.contains("\"error\""))
            for path in ["/v2/nope", "/v1/detect"] {
                let head = try await client.send(["HEAD \(path) HTTP/1.1", "Host: localhost", "Connection: close"])
                #expect((head.status == 404 || head.status == 405) && head.body.isEmpty, "HEAD \(path): \(head.status)")
            }
        }
    }

    /// `Expect: 100-continue` is answered `100 Continue` as the head arrives (RFC 9110 §10.1.1), before
    /// any of the body, which then gets its answer as without the expectation; with a declared length
    /// over the limit the final answer, 413, follows the interim one.
    @Test func aContinueExpectationIsAnsweredAtOnce() async throws {
        let image = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.bus)))
        try await Self.withServer({ $0.readTimeout = .seconds(5) }) { client, detector in
            let head = Self.post("/v1/detect", type: "image/jpeg", body: image) + ["Expect: 100-continue"]
            let clock = ContinuousClock(), start = clock.now
            let interim = try await client.send(head, timeout: .seconds(10), interim: true)
            #expect(interim.status == 100 && clock.now - start < .seconds(4), "\(interim.status) after \(clock.now - start)")
            let final = try await client.send(head, body: image)
            #expect(final.status == 200)
            #expect(Self.withoutTimings(final.text.trimmingCharacters(in: .newlines)) == (try Self.expectedJSON(detector, name: nil)))
        }
        try await Self.withServer({ $0.maxBody = 1000 }) { client, _ in
            let head = Self.post("/v1/detect", type: "image/jpeg", body: image) + ["Expect: 100-continue"]
            let refused = try await client.send(head, timeout: .seconds(10))
            #expect(refused.status == 413)
        }
    }

    /// Pipelined behind a request still being answered, an `Expect: 100-continue` request gets its
    /// `100 Continue` after that answer (RFC 9112 §9.3.2: answers in the order of the requests); it
    /// came first, and a client reading in order took it for the first request's answer.
    @Test func aContinueBehindAPipelinedRequestWaitsItsTurn() async throws {
        let image = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.bus)))
        try await Self.withServer { client, _ in
            let second = Self.post("/v1/detect", type: "image/jpeg", body: image) + ["Expect: 100-continue"]
            let secondHead = Array((second.joined(separator: "\r\n") + "\r\n\r\n").utf8)
            let first = Self.post("/v1/detect", type: "image/jpeg", body: image).map { $0 == "Connection: close" ? "Connection: keep-alive" : $0 }
            let answer = try await client.send(first, body: image + secondHead, timeout: .seconds(10), interim: true)
            #expect(answer.status == 200, "the connection's first answer: \(answer.status)")
        }
    }

    @Test func aBodyGrowingPastTheLimitIsRefused() async throws {
        try await Self.withServer({ $0.maxBody = 1000 }) { client, _ in
            let chunk = [UInt8](repeating: 0x41, count: 4000)
            let head = ["POST /v1/detect HTTP/1.1", "Host: localhost", "Connection: close", "Content-Type: image/jpeg", "Transfer-Encoding: chunked"]
            let chunked = Array("fa0\r\n".utf8) + chunk + Array("\r\n0\r\n\r\n".utf8)
            let answer = try await client.send(head, body: chunked)
            #expect(answer.status == 413)
        }
    }

    @Test func aFullQueueAnswers503WithRetryAfter() async throws {
        let image = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.bus)))
        try await Self.withServer({ $0.workers = 1; $0.maxQueue = 0 }) { client, _ in
            let answers = try await withThrowingTaskGroup(of: RawHTTPClient.Answer.self) { group in
                for _ in 0..<6 { group.addTask { try await client.send(Self.post("/v1/detect", type: "image/jpeg", body: image), body: image) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let all = answers.map(\.status)
            let retryAfter = answers.filter { $0.status == 503 }.map { $0.headers["retry-after"] ?? "" }
            #expect(all.count == 6 && all.allSatisfy { $0 == 200 || $0 == 503 })
            #expect(all.contains(200) && all.contains(503))
            #expect(retryAfter.allSatisfy { $0 == "1" })
        }
    }
}
