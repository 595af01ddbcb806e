import YOLODetect
import YOLOImage

/// How `Detector` fits images to the model and filters its output; the defaults are those of
/// Ultralytics' `YOLO(model).predict()`.
public struct DetectionOptions: Sendable, Equatable {
    /// Target input side (`imgsz`), rounded up to a multiple of the model's stride as Ultralytics'
    /// `check_imgsz` does.
    public var imageSize: Int = 640
    /// How the image is fitted: `.letterbox` (the minimal stride-aligned rectangle, predict's
    /// default), `.square` (the full `imageSize²` canvas), `.stretch` or `.crop`.
    public var resize: ResizeMode = .letterbox
    /// Minimum class confidence (`conf`), compared in single precision as Ultralytics compares it.
    public var confidenceThreshold: Double = 0.25
    /// IoU above which NMS suppresses the weaker box (`iou`).
    public var iouThreshold: Double = 0.7
    /// At most this many detections per image (`max_det`).
    public var maxDetections: Int = 300
    /// One box per place, whatever its class (`agnostic_nms`); otherwise NMS runs per class.
    public var agnostic: Bool = false
    /// Keep only these class ids (`classes`); `nil` keeps all.
    public var classes: Set<Int>? = nil
    /// Run the model's end-to-end (one-to-one) head and take its top-k detections without NMS, as
    /// Ultralytics' `nms=False` does (YOLO26). Only for a model with such a head; `iouThreshold` is then unused.
    public var endToEnd: Bool = false
    /// Refuse an input whose activations would need more bytes than this (the model's memory plan
    /// for the input size), before anything of its size is allocated; `nil` sets no limit.
    public var memoryLimit: Int? = nil

    public init() {}

    var endToEndSelection: EndToEndSelection? {
        endToEnd ? EndToEndSelection(options: postprocessOptions) : nil
    }

    var postprocessOptions: PostprocessOptions {
        PostprocessOptions(confidenceThreshold: Float(confidenceThreshold), iouThreshold: iouThreshold, classes: classes,
                           agnostic: agnostic, maxDetections: maxDetections)
    }
}
