/// How an image is fitted to the model's input.
public enum ResizeMode: String, Sendable, CaseIterable, Codable {
    /// Ultralytics `predict()` default (`LetterBox(auto=True)`): scale to fit, keeping the aspect
    /// ratio, then pad each axis only up to the next multiple of the stride (the minimal rectangle).
    case letterbox
    /// `LetterBox(auto=False)`: scale to fit and pad to the full target size.
    case square
    /// `LetterBox(scale_fill=True)`: resize to the target size, ignoring the aspect ratio.
    case stretch
    /// Scale so the image covers the target (the short side matches), then crop the centre.
    case crop
}
