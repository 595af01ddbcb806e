import SwiftYOLO
import YOLOImage
import YOLOVideo

/// What `VideoPipeline` reports, in stream order.
package enum VideoEvent: Sendable {
    /// A processed frame and what it shows.
    case frame(FrameReport)
    /// The scene settled on this frame (`SettleDetector`): its objects, left to right.
    case settled(frame: Int, time: Double, detections: [StreamDetection])
    /// A frame that could not be decoded or detected in; the stream goes on.
    case frameFailed(frame: Int, time: Double, file: String?, message: String)
}

/// One processed frame.
package struct FrameReport: Sendable {
    /// 0-based position in the source.
    package let frame: Int
    /// Seconds from the start of the source.
    package let time: Double
    /// The image file, for directory sources.
    package let file: String?
    /// The frame's pixels.
    package let image: RGBImage
    /// Reported objects: the detections, or the tracked objects when tracking.
    package let detections: [StreamDetection]
    /// Sampled frames dropped just before this one (realtime mode).
    package let dropped: Int
    /// Decode (YUV→RGB conversion or image decoding), preprocessing, inference and post-processing.
    package let timings: StageTimings
}
