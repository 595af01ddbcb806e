/// A request the server refuses, with the HTTP status it answers and a message for the client.
package struct RequestError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The HTTP status code: 400 bad request, 404 unknown model, 408 too slow, 413 too large, 415
    /// unsupported type or content coding, 501 unsupported transfer coding.
    package let status: Int
    package let message: String

    package init(status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    package static func badRequest(_ message: String) -> RequestError { RequestError(status: 400, message) }

    package var description: String { message }
}
