// libFuzzer target: what `swift-yolo serve` parses from a request before any detection. The first
// byte picks the parser; the rest is its input:
//   0: a multipart/form-data body, its boundary on the first line (`b\r\n--b\r\n…`)
//   1: a KServe v2 inference request (JSON, base64 image)
//   2: a query string (`conf=0.5&classes=person,bus`, percent- and plus-encoded) as detection options
//   3: a Content-Type header, for its multipart boundary
// Every refusal must be a 400 RequestError with a message; nothing may crash or hang.
import FuzzSupport
import SwiftYOLO
import YOLOServing

private let labels = LabelMap(names: ["person", "bicycle", "car", "bus"])

private func fuzzRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 4 {
    case 0:
        let newline = bytes.firstIndex(of: 10) ?? bytes.count
        let boundary = String(decoding: bytes[..<newline], as: UTF8.self).trimmingCharacters(in: ["\r"])
        guard !boundary.isEmpty else { return 0 }
        do {
            let form = try MultipartFormData(body: Array(bytes[min(bytes.count, newline + 1)...]), boundary: boundary)
            Fuzz.check(form.parts.count <= MultipartFormData.maximumParts, "more parts than the limit")
            for part in form.parts { Fuzz.check(part.body.count <= bytes.count, "a part larger than the body") }
        } catch {
            Fuzz.check(error.status == 400 && !error.message.isEmpty, "multipart refusal \(error.status): \(error.message)")
        }
    case 1:
        do {
            let request = try InferenceProtocol.decodeRequest(bytes)
            Fuzz.check(request.image.count <= bytes.count, "an image larger than the request")
        } catch {
            Fuzz.check(error.status == 400 && !error.message.isEmpty, "KServe refusal \(error.status): \(error.message)")
        }
    case 2:
        let parameters = RequestOptions.parameters(query: String(decoding: bytes, as: UTF8.self))
        do {
            _ = try RequestOptions.options(parameters, defaults: DetectionOptions(), labels: labels)
        } catch {
            Fuzz.check(error.status == 400 && !error.message.isEmpty, "option refusal \(error.status): \(error.message)")
        }
    default:
        if let boundary = MultipartFormData.boundary(contentType: String(decoding: bytes, as: UTF8.self)) {
            Fuzz.check((1...70).contains(boundary.utf8.count), "a boundary of \(boundary.utf8.count) bytes")
        }
    }
    return 0
}

Fuzz.run(fuzzRequest)
