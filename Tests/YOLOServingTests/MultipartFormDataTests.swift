import Testing
import YOLOServing

@Suite struct MultipartFormDataTests {
    static func body(_ text: String) -> [UInt8] { Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8) }

    @Test func takesTheImagePartOfACurlUpload() throws {
        let body = Self.body("""
            --XyZ
            Content-Disposition: form-data; name="note"

            hello
            --XyZ
            Content-Disposition: form-data; name="image"; filename="bus; \\"1\\".jpg"
            Content-Type: image/JPEG

            \u{1}\u{2}
            --XyZ--

            """)
        let form = try MultipartFormData(body: body, boundary: "XyZ")
        #expect(form.parts.count == 2)
        let file = try #require(form.file)
        #expect(file.name == "image")
        #expect(file.filename == "bus; \"1\".jpg")
        #expect(file.contentType == "image/jpeg")
        #expect(Array(file.body) == [1, 2])
        #expect(form.parts[0].name == "note" && Array(form.parts[0].body) == Array("hello".utf8))
    }

    @Test func aPartWithoutHeadersAndAPreamble() throws {
        let form = try MultipartFormData(body: Self.body("preamble\n--b\n\nabc\n--b--"), boundary: "b")
        #expect(form.parts.count == 1 && Array(form.parts[0].body) == Array("abc".utf8) && form.parts[0].name == nil)
    }

    @Test func theBoundaryFromTheContentType() {
        #expect(MultipartFormData.boundary(contentType: "multipart/form-data; boundary=----abc") == "----abc")
        #expect(MultipartFormData.boundary(contentType: "Multipart/Form-Data;charset=utf-8; BOUNDARY=\"a b\"") == "a b")
        #expect(MultipartFormData.boundary(contentType: "multipart/mixed; boundary=abc") == nil)
        #expect(MultipartFormData.boundary(contentType: "multipart/form-data") == nil)
        #expect(MultipartFormData.boundary(contentType: "multipart/form-data; boundary=") == nil)
        #expect(MultipartFormData.boundary(contentType: "multipart/form-data; boundary=" + String(repeating: "x", count: 71)) == nil)
    }

    @Test func malformedBodiesAreRefusedWithA400() {
        let cases: [(String, String)] = [
            ("no boundary at all", "no boundary"),
            ("--b\nContent-Disposition: form-data; name=\"a\"\n\nnever ends", "does not end with the boundary"),
            ("--bXContent-Disposition: x\n\n\n--b--", "not followed by a line break"),
            ("--b\nContent-Disposition form-data\n\nx\n--b--", "has no ':'"),
        ]
        for (text, message) in cases {
            #expect {
                try MultipartFormData(body: Self.body(text), boundary: "b")
            } throws: { error in
                let error = error as? RequestError
                return error?.status == 400 && error?.message.contains(message) == true
            }
        }
        let longHeader = "--b\nX-Long: " + String(repeating: "a", count: MultipartFormData.maximumHeaderBytes) + "\n\nx\n--b--"
        #expect(throws: RequestError.self) { try MultipartFormData(body: Self.body(longHeader), boundary: "b") }
    }

    /// Every prefix of a valid body is refused with a 400 or parsed, never a crash; exactly the
    /// prefixes that hold the closing delimiter parse.
    @Test func everyTruncationIsSafe() {
        let upToClosing = Self.body("--b\nContent-Disposition: form-data; name=\"image\"; filename=\"x.png\"\n\n0123456789\n--b--")
        let body = upToClosing + Self.body("\n")
        for length in 0...body.count {
            do {
                let form = try MultipartFormData(body: Array(body.prefix(length)), boundary: "b")
                #expect(length >= upToClosing.count)
                #expect(form.file.map { Array($0.body) } == Array("0123456789".utf8))
            } catch {
                #expect(length < upToClosing.count && error.status == 400)
            }
        }
    }
}
