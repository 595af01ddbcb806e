import FoundationEssentials
import Glibc
import SwiftYOLO

/// The KServe Open Inference Protocol v2 (REST) as this server speaks it: one input named `image`
/// (datatype `BYTES`, shape `[1]`, the encoded JPEG or PNG in base64), one output named `detections`
/// (`FP32`, shape `[N, 6]`, rows `x1, y1, x2, y2, confidence, class`), the class names as the
/// output's `labels` parameter (a JSON array in a string, as parameters hold only scalars).
package enum InferenceProtocol {
    /// The request body: `{"id": ID, "inputs": [{"name", "shape", "datatype", "data"}], "parameters": {...}}`.
    package struct Request: Decodable, Sendable {
        package var id: String?
        package var inputs: [Tensor]
        package var parameters: [String: Parameter]?

        package struct Tensor: Decodable, Sendable {
            package var name: String
            package var shape: [Int]
            package var datatype: String
            package var data: [String]
        }
    }

    /// A request parameter: KServe allows a string, a number or a boolean.
    package enum Parameter: Decodable, Sendable, Equatable {
        case string(String), number(Double), bool(Bool)

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) { self = .bool(bool) }
            else if let number = try? container.decode(Double.self) { self = .number(number) }
            else if let text = try? container.decode(String.self) { self = .string(text) }
            else {
                // Also a number past Double's range (1e999), which the decoder refuses as a number.
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "a parameter is a string, a finite number or a boolean")
            }
        }

        /// The value as a query parameter would give it.
        package var text: String {
            switch self {
            case .string(let text): text
            case .bool(let bool): bool ? "true" : "false"
            case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
            }
        }
    }

    /// The request's id, the encoded image and its parameters (as name/value pairs for
    /// `RequestOptions`); a 400 `RequestError` says what is wrong with the body.
    package static func decodeRequest(_ body: [UInt8]) throws(RequestError)
        -> (id: String?, image: [UInt8], parameters: [(name: String, value: String)]) {
        let request: Request
        do {
            request = try JSONDecoder().decode(Request.self, from: Data(body))
        } catch {
            throw .badRequest("the body is not a KServe v2 inference request: \(describe(error))")
        }
        guard let input = request.inputs.first(where: { $0.name == "image" }) else {
            throw .badRequest("the request has no input named 'image' (inputs: \(request.inputs.map(\.name).joined(separator: ", ")))")
        }
        guard input.datatype == "BYTES" else { throw .badRequest("input 'image' has datatype \(input.datatype); it must be BYTES") }
        guard input.data.count == 1, input.shape == [1] else {
            throw .badRequest("input 'image' must hold one image (shape [1]); it has shape \(input.shape) and \(input.data.count) elements")
        }
        guard let image = Data(base64Encoded: input.data[0]) else { throw .badRequest("input 'image' is not base64") }
        let parameters = (request.parameters ?? [:]).sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value.text) }
        return (request.id, [UInt8](image), parameters)
    }

    /// `{"model_name": NAME, "id": ID, "outputs": [{"name": "detections", "datatype": "FP32", "shape": [N, 6], "data": [...], "parameters": {"labels": "[...]"}}]}`.
    package static func response(modelName: String, id: String?, detections: [Detection]) -> String {
        let rows = detections.map { d in
            [d.box.x1, d.box.y1, d.box.x2, d.box.y2, d.confidence, Float(d.classId)].map(ResultJSON.number).joined(separator: ", ")
        }
        let labels = "[" + detections.map { ResultJSON.string($0.label) }.joined(separator: ", ") + "]"
        return "{\"model_name\": \(ResultJSON.string(modelName)), " + (id.map { "\"id\": \(ResultJSON.string($0)), " } ?? "")
            + "\"outputs\": [{\"name\": \"detections\", \"datatype\": \"FP32\", \"shape\": [\(detections.count), 6], "
            + "\"data\": [\(rows.joined(separator: ", "))], \"parameters\": {\"labels\": \(ResultJSON.string(labels))}}]}"
    }

    /// `GET /v2/models/{name}`: the model's name, platform, inputs and outputs.
    package static func metadata(modelName: String, task: String, classNames: [String]) -> String {
        "{\"name\": \(ResultJSON.string(modelName)), \"versions\": [], \"platform\": \"swiftyolo\", "
            + "\"inputs\": [{\"name\": \"image\", \"datatype\": \"BYTES\", \"shape\": [1]}], "
            + "\"outputs\": [{\"name\": \"detections\", \"datatype\": \"FP32\", \"shape\": [-1, 6]}], "
            + "\"parameters\": {\"task\": \(ResultJSON.string(task)), \"classes\": \(classNames.count)}}"
    }

    /// `{"error": MESSAGE}`, the protocol's error body.
    package static func error(_ message: String) -> String { "{\"error\": \(ResultJSON.string(message))}" }

    /// A decoding error in a sentence, with the path to the offending field.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "" : " at \(keys.hasPrefix(".") ? String(keys.dropFirst()) : keys)"
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.debugDescription + path(context)
        case .keyNotFound(let key, let context):
            return "missing '\(key.stringValue)'" + path(context)
        @unknown default:
            return "\(error)"
        }
    }
}
