#if canImport(SwiftYOLOServer)
import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import SwiftYOLO
import SwiftYOLOServer
import Synchronization
import YOLOKernels

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve detection over HTTP: POST /v1/detect, the KServe v2 inference protocol, Prometheus metrics.",
        discussion: """
            The model is loaded and warmed up once, then the server listens (it prints the address, \
            with the port it took for --port 0). Routes (docs/openapi.yaml):
              POST /v1/detect                  a JPEG or PNG body (Content-Type image/jpeg or image/png, or a \
            multipart/form-data file part); the answer is the object `detect --json` prints, "image" being \
            the uploaded file's name or null
              POST /v2/models/NAME/infer       KServe Open Inference Protocol v2: input "image" (BYTES, base64), \
            output "detections" (FP32 [N, 6]: x1, y1, x2, y2, confidence, class)
              GET  /v2/health/live, /v2/health/ready, /v2/models/NAME, /v2/models/NAME/ready
              GET  /metrics                    Prometheus text format
            NAME is the weight file's name without its extension (yolo11n).

            The detection options below are defaults; a request overrides them with query parameters \
            (?conf=0.5&classes=person,bus&imgsz=320&max_det=10&agnostic=true&end2end=true) or, on the v2 \
            route, with the request's "parameters".

            Detections run on --workers threads of their own; --max-queue more requests may wait, and \
            the next one is answered 503 with Retry-After at once. A body over --max-body is answered 413 \
            before it is read, another content type or a compressed body (Content-Encoding) 415, a \
            transfer coding other than chunked 501, an image that does not decode (or is over \
            --max-pixels) 400 with the decoder's message, a client slower than --read-timeout 408. \
            SIGTERM or SIGINT stops accepting, answers the requests in flight, prints \
            "swift-yolo serve: stopped after N requests, every one answered", and exits 0.

            Examples:
              swift-yolo serve --model Weights/yolo11n.swyolo --port 8080
              curl -s --data-binary @bus.jpg -H 'Content-Type: image/jpeg' 'localhost:8080/v1/detect?conf=0.5'
              curl -s -F image=@bus.jpg localhost:8080/v1/detect
            """)

    @OptionGroup var detector: DetectorArguments

    @Option(help: ArgumentHelp("The address to listen on (0.0.0.0: every interface).", valueName: "address"))
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The port to listen on; 0 takes a free one.")
    var port = 8080

    @Option(parsing: .unconditional, help: ArgumentHelp("Detections run at once (default: the cores this process may use: its CPU affinity and its control group's CPU quota).", valueName: "n"))
    var workers: Int?

    @Option(name: .customLong("max-queue"), parsing: .unconditional, help: ArgumentHelp("Requests that may wait for a worker.", valueName: "n"))
    var maxQueue = 32

    @Option(name: .customLong("max-body"), help: ArgumentHelp("The largest request body (e.g. 20M).", valueName: "size"))
    var maxBody = MemorySize(bytes: 20 * 1024 * 1024)

    @Option(name: .customLong("read-timeout"), parsing: .unconditional, help: ArgumentHelp("Seconds a client may take to send its body, or stay idle.", valueName: "seconds"))
    var readTimeout: Double = 30

    @Option(parsing: .unconditional, help: ArgumentHelp("Threads of one detection (default: the cores divided among the workers, at least 1: with the default workers, one each, so that a full server does not oversubscribe the cores; --workers 1 gives one request every core).", valueName: "n"))
    var threads: Int?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must lie in 0...65535, got \(port)") }
        try ThreadsOption.checkCount(workers, flag: "--workers")
        try ThreadsOption.checkCount(threads, flag: "--threads")
        guard maxQueue >= 0 else { throw ValidationError("--max-queue must not be negative, got \(maxQueue)") }
        guard readTimeout > 0, readTimeout <= 86_400 else { throw ValidationError("--read-timeout must lie in (0, 86400] seconds, got \(readTimeout)") }
    }

    func run() throws {
        let cores = AvailableCores.count
        // Every worker's pass holds its own activations.
        let detector = try detector.makeDetector(passes: workers ?? cores, threads: threads ?? max(1, cores / (workers ?? cores)))
        let modelPath = self.detector.modelOptions.resolvedPath
        var configuration = ServerConfiguration(modelName: URL(fileURLWithPath: modelPath).deletingPathExtension().lastPathComponent,
                                                workers: workers ?? cores, maxQueue: maxQueue)
        configuration.host = host
        configuration.port = port
        configuration.maxBody = maxBody.bytes
        configuration.readTimeout = .milliseconds(Int64((readTimeout * 1000).rounded()))
        let server: InferenceServer
        do {
            server = try InferenceServer(detector: detector, configuration: configuration)
        } catch {
            throw CommandFailure.failed("serve with \(configuration.workers) workers: \(error); use fewer --workers")
        }
        let host = host, workers = configuration.workers, maxQueue = maxQueue, name = configuration.modelName
        let listening = Mutex(false)
        do {
            try Self.wait {
                try await server.run { port in
                    listening.withLock { $0 = true }
                    do {
                        let workerCount = "\(workers) worker" + (workers == 1 ? "" : "s")
                        try StandardStreams.line("swift-yolo serve: listening on http://\(host):\(port) (model \(name), \(workerCount), queue \(maxQueue))")
                    } catch {
                        StandardStreams.message("warning: could not write the listening line: \(error)")
                    }
                }
            }
        } catch {
            // A port taken or an address not this machine's: the command line asks for what cannot be (64).
            if !listening.withLock({ $0 }), let reason = InferenceServer.listeningFailure(error) {
                throw CommandFailure.usage("serve cannot listen on \(host):\(port): \(reason); choose another --host or --port")
            }
            throw CommandFailure.failed("serve on \(host):\(port): \(error)")
        }
        // Stopped by SIGTERM or SIGINT, every accepted request answered: the count, for operators and
        // for tools/serve_check.py (a connection not yet read at the stop is reset, which its client
        // cannot tell from a dropped request; this count can).
        let (received, answered) = server.metrics.requestTotals
        let unanswered = received == answered ? "every one answered" : "\(received - answered) of them unanswered"
        do {
            try StandardStreams.line("swift-yolo serve: stopped after \(received) requests, \(unanswered)")
        } catch {
            StandardStreams.message("warning: could not write the stopping line: \(error)")
        }
    }

    /// Runs `operation` to its end from this synchronous command (the main thread waits; the
    /// server runs on Swift concurrency's and NIO's threads).
    private static func wait(_ operation: @escaping @Sendable () async throws -> Void) throws {
        let outcome = Mutex<(any Error)??>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task {
            do {
                try await operation()
                outcome.withLock { $0 = .some(nil) }
            } catch {
                outcome.withLock { $0 = .some(error) }
            }
            finished.signal()
        }
        finished.wait()
        if let error = outcome.withLock({ $0 }) ?? nil { throw error }
    }
}
#endif
