/// The chroma layout of a YUV4MPEG2 stream (its `C` header tag).
///
/// The three 4:2:0 sitings differ only in where the chroma samples lie; ffmpeg's unscaled
/// YUV→RGB conversion ignores the siting (each chroma sample covers its 2×2 luma block), and so
/// does `YUVToRGB`.
package enum Y4MChroma: String, Sendable, CaseIterable {
    /// `C420jpeg` (also the default when the tag is absent, and `C420`): chroma centred between luma samples.
    case c420jpeg = "420jpeg"
    /// `C420paldv`: chroma co-sited with the top-left luma sample, Cb and Cr on alternate lines.
    case c420paldv = "420paldv"
    /// `C420mpeg2`: chroma co-sited horizontally, centred vertically.
    case c420mpeg2 = "420mpeg2"
    /// `C444`: one chroma sample per pixel.
    case c444 = "444"

    /// Parses the value of a `C` tag; `420` is ffmpeg's name for 4:2:0 with jpeg siting.
    package init?(tag: String) {
        if tag == "420" { self = .c420jpeg; return }
        self.init(rawValue: tag)
    }

    /// Whether chroma is halved in both directions.
    package var isSubsampled: Bool { self != .c444 }

    /// Width and height of one chroma plane for a `width × height` frame (halved, rounded up, for 4:2:0).
    package func chromaSize(width: Int, height: Int) -> (width: Int, height: Int) {
        isSubsampled ? ((width + 1) / 2, (height + 1) / 2) : (width, height)
    }
}
