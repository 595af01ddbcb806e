import SwiftYOLO

/// What `swift-yolo serve` listens on and how much it takes on.
package struct ServerConfiguration: Sendable {
    /// The address to listen on (`127.0.0.1`: this host only).
    package var host = "127.0.0.1"
    /// The port; 0 takes a free one (the server says which when it is listening).
    package var port = 8080
    /// Detections run at once, each on a thread of its own.
    package var workers: Int
    /// Requests that may wait for a worker; one more is answered 503 at once.
    package var maxQueue: Int
    /// The largest request body; a larger one is answered 413 before it is read.
    package var maxBody = 20 * 1024 * 1024
    /// How long a client may take to send its body, and a connection may stay idle; a slower
    /// client is answered 408 and cut off.
    package var readTimeout: Duration = .seconds(30)
    /// The seconds a 503 asks the client to wait before it retries (`Retry-After`).
    package var retryAfterSeconds = 1
    /// The name of the model in the KServe routes (`/v2/models/{name}`): the weight file's name
    /// without its extension.
    package var modelName: String

    package init(modelName: String, workers: Int, maxQueue: Int) {
        self.modelName = modelName
        self.workers = workers
        self.maxQueue = maxQueue
    }
}
