import Testing
import YOLOServing

@Suite struct MediaTypeTests {
    @Test(arguments: [
        ("image/jpeg", "image/jpeg"),
        ("Multipart/Form-Data; boundary=XyZ", "multipart/form-data"),
        (" application/json ;charset=utf-8", "application/json"),
        ("\timage/PNG", "image/png"),
        ("", ""),
        ("; boundary=x", ""),
    ])
    func isTheLowercasedTypeWithoutParameters(contentType: String, mediaType: String) {
        #expect(MediaType.of(contentType) == mediaType)
    }
}
