import SwiftYOLO
import YOLOImage
import YOLOVideo

/// What `VideoPipeline` reports, in stream order.
public enum VideoEvent: Sendable {
    /// A processed frame and what it shows.
    case frame(FrameReport)
    /// The scene settled on this frame (`SettleDetector`): its objects, left to right.
    case settled(frame: Int, time: Double, detections: [StreamDetection])
    /// A frame that could not be decoded or detected in; the stream goes on.
    case frameFailed(frame: Int, time: Double, file: String?, message: String)
}

/// One processed frame.
public struct FrameReport: Sendable {
    /// 0-based position in the source.
    public let frame: Int
    /// Seconds from the start of the source.
    public let time: Double
    /// The image file, for directory sources.
    public let file: String?
    /// The frame's pixels.
    public let image: RGBImage
    /// Reported objects: the detections, or the tracked objects when tracking.
    public let detections: [StreamDetection]
    /// Sampled frames dropped just before this one (realtime mode).
    public let dropped: Int
    /// Decode (YUV→RGB conversion or image decoding), preprocessing, inference and post-processing.
    public let timings: StageTimings
}
