import Hummingbird
import YOLOServing

/// The image of a `POST /v1/detect`: the body itself (`image/jpeg`, `image/png`), or the file part
/// of `multipart/form-data`, with its file name.
struct ImageUpload: Sendable {
    var bytes: [UInt8]
    /// The file name of a multipart upload; `nil` for a bare body.
    var name: String?

    static let imageTypes: Set<String> = ["image/jpeg", "image/jpg", "image/png"]

    /// Reads the upload from `request`; 415 for another content type, 400 for a malformed form.
    static func read(_ request: Request, context: BasicRequestContext, reader: RequestBodyReader) async throws(RequestError) -> ImageUpload {
        let contentType = request.headers[.contentType] ?? ""
        let mediaType = MediaType.of(contentType)
        if imageTypes.contains(mediaType) {
            return ImageUpload(bytes: try await reader.read(request, context: context), name: nil)
        }
        guard mediaType == "multipart/form-data" else {
            throw RequestError(status: 415, "unsupported content type '\(contentType)': send image/jpeg, image/png or multipart/form-data")
        }
        guard let boundary = MultipartFormData.boundary(contentType: contentType) else {
            throw .badRequest("multipart/form-data without a usable boundary parameter")
        }
        let form = try MultipartFormData(body: try await reader.read(request, context: context), boundary: boundary)
        guard let file = form.file else { throw .badRequest("the form has no file part") }
        if let type = file.contentType, type != "application/octet-stream", !imageTypes.contains(type) {
            throw RequestError(status: 415, "unsupported file type '\(type)': upload a JPEG or PNG image")
        }
        return ImageUpload(bytes: Array(file.body), name: file.filename)
    }
}
