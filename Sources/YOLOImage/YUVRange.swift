/// The range of the Y, Cb and Cr codes: `limited` (studio swing, Y 16…235, C 16…240 — what
/// video almost always is) or `full` (0…255, JPEG's). YUV4MPEG2 says which with the
/// `XCOLORRANGE=LIMITED|FULL` extension; without it a stream is limited-range.
package enum YUVRange: String, Sendable, CaseIterable {
    case limited = "LIMITED"
    case full = "FULL"
}
