import FoundationEssentials
import Glibc
import YOLODetect
import YOLOImage
import YOLOModel

/// Detection, segmentation or pose with a YOLO11 model, or detection with a YOLO26 one (the model
/// file says which): load once, then detect in as many images as you like.
///
/// ```swift
/// let detector = try Detector(modelPath: "Weights/yolo11n.swyolo")
/// for detection in try detector.detect(imageAt: "bus.jpg") {
///     print(detection.label, detection.confidence, detection.box)   // box in image pixels
/// }
/// ```
///
/// A `Detector` is immutable after `init` and safe to share between threads: each call works on
/// its own buffers, and the model's weights are only read. Concurrent calls give exactly the
/// results of the same calls made one after another (tested with 8 threads: `ReliabilityTests`,
/// and 2,000 detections by `Benchmarks/concurrency.sh`).
public final class Detector: Sendable {
    /// The largest `imageSize` a detector accepts, and the largest stride of a model it loads.
    public static let maximumInputSide = 16_384

    /// The sides `detect --imgsz` and the server's `imgsz` accept. The library takes any positive
    /// size and rounds it up to the model's stride, as Ultralytics does; below 32, which every
    /// YOLO model's stride rounds up to, a side given by hand is taken for a mistake.
    package static let commandLineImageSizes = 32...maximumInputSide

    package let model: DetectionModel
    /// The class names the detections carry (the model's, or those given at `init`).
    public let labels: LabelMap
    /// The options of every call that gives none of its own.
    public let options: DetectionOptions
    /// How image files are decoded, and the limits on what is accepted.
    public let decoder: ImageDecoder

    /// Loads the weights file at `modelPath`.
    ///
    /// - Parameters:
    ///   - modelPath: a SwiftYOLO weights file (`tools/convert.py` makes one from a checkpoint).
    ///   - labels: display names replacing the checkpoint's class names (one per class).
    ///   - options: the options of every call that gives none of its own.
    ///   - decoder: image decoding limits (50 megapixels by default).
    /// - Throws: `DetectorError.unusableModel` where the file cannot be read, is not a SwiftYOLO
    ///   weights file, is damaged or describes a model this engine cannot build, or the kernel set
    ///   forced by `SWIFTYOLO_KERNELS` cannot run here; `DetectorError.invalidOptions` for `labels`
    ///   or `options` that do not suit the model.
    public convenience init(modelPath: String, labels: LabelMap? = nil, options: DetectionOptions = DetectionOptions(),
                            decoder: ImageDecoder = ImageDecoder()) throws {
        let model: DetectionModel
        do {
            model = try DetectionModel(path: modelPath)
        } catch {
            throw DetectorError.unusableModel(path: modelPath, reason: "\(error)")
        }
        try self.init(model: model, labels: labels, options: options, decoder: decoder)
    }

    /// Loads the weights file at `url` (a file URL).
    public convenience init(contentsOf url: URL, labels: LabelMap? = nil, options: DetectionOptions = DetectionOptions(),
                            decoder: ImageDecoder = ImageDecoder()) throws {
        guard url.isFileURL else { throw DetectorError.invalidOptions(reason: "\(url) is not a file URL") }
        try self.init(modelPath: url.path, labels: labels, options: options, decoder: decoder)
    }

    /// Wraps a loaded model (several detectors with different options can share one).
    package init(model: DetectionModel, labels: LabelMap? = nil, options: DetectionOptions = DetectionOptions(),
                decoder: ImageDecoder = ImageDecoder()) throws {
        if let labels, labels.count != model.classCount {
            throw DetectorError.invalidOptions(reason: "\(labels.count) labels for a model of \(model.classCount) classes")
        }
        try Self.validate(options, for: model)
        self.model = model
        self.labels = labels ?? LabelMap(names: model.classNames)
        self.options = options
        self.decoder = decoder
    }

    /// Throws unless `options` suit `model`: a resize its task can map back, a positive image size up
    /// to `maximumInputSide` and a stride no larger, class ids the model has, thresholds in [0, 1]
    /// and the limits below.
    static func validate(_ options: DetectionOptions, for model: DetectionModel) throws {
        // Masks are mapped back to the image through the letterbox (Ultralytics' scale_image); a
        // stretched or cropped input would need another mapping, which is not written yet.
        if model.task == .segment, options.resize == .stretch || options.resize == .crop {
            throw DetectorError.invalidOptions(reason: "a segmentation model's masks need the letterbox or square resize, not \(options.resize.rawValue)")
        }
        guard options.imageSize > 0 else { throw DetectorError.invalidOptions(reason: "image size \(options.imageSize) is not positive") }
        guard options.imageSize <= Self.maximumInputSide else {
            throw DetectorError.invalidOptions(reason: "image size \(options.imageSize) is over the largest input side, \(Self.maximumInputSide)")
        }
        // The input side is rounded up to a multiple of the largest stride; a model file claiming an
        // absurd stride would ask for an absurd input.
        guard model.maximumStride <= Self.maximumInputSide else {
            throw DetectorError.invalidOptions(reason: "the model \(model.file) claims a stride of \(model.maximumStride), over the largest input side, \(Self.maximumInputSide)")
        }
        if let classes = options.classes, let bad = classes.first(where: { !(0..<model.classCount).contains($0) }) {
            throw DetectorError.invalidOptions(reason: "class id \(bad) is outside 0..<\(model.classCount)")
        }
        guard (0...1).contains(options.confidenceThreshold), (0...1).contains(options.iouThreshold) else {
            throw DetectorError.invalidOptions(reason: "thresholds must lie in [0, 1]: confidence \(options.confidenceThreshold), IoU \(options.iouThreshold)")
        }
        guard options.maxDetections >= 1 else { throw DetectorError.invalidOptions(reason: "max detections \(options.maxDetections) is below 1") }
        guard !options.endToEnd || model.hasEndToEndHead else {
            throw DetectorError.invalidOptions(reason: "the model \(model.file) has no end-to-end (one-to-one) head, so it cannot run end to end")
        }
    }

    /// The detections in the image file at `path`, boxes in its pixels; `options` for this call only
    /// (default: the detector's).
    public func detect(imageAt path: String, options: DetectionOptions? = nil) throws -> [Detection] {
        try run(imageAt: path, options: options).detections
    }

    /// The detections in the image file at `url`.
    public func detect(contentsOf url: URL, options: DetectionOptions? = nil) throws -> [Detection] {
        guard url.isFileURL else { throw DetectorError.invalidOptions(reason: "\(url) is not a file URL") }
        return try run(imageAt: url.path, options: options).detections
    }

    /// The detections in the pixels of `buffer` (RGB, BGR, RGBA, BGRA, gray, I420 or NV12, rows
    /// padded or not), boxes in its pixels. Its rows are read in place while the image is resized.
    public func detect(in buffer: PixelBuffer, options: DetectionOptions? = nil) throws -> [Detection] {
        try run(buffer, options: options).detections
    }

    /// The detections in an RGB image given as interleaved 8-bit pixels (`width · height · 3` bytes,
    /// row-major, no padding), boxes in its pixels.
    public func detect(pixels: [UInt8], width: Int, height: Int, options: DetectionOptions? = nil) throws -> [Detection] {
        guard width > 0, height > 0, width <= decoder.maxPixels / height else {
            throw DetectorError.invalidPixels(reason: "size \(width)×\(height) is empty or over the \(decoder.maxPixels)-pixel limit")
        }
        let (bytesNeeded, overflow) = (width * height).multipliedReportingOverflow(by: 3)
        guard !overflow, pixels.count == bytesNeeded else {
            throw DetectorError.invalidPixels(reason: "\(pixels.count) bytes for \(width)×\(height) RGB (needs 3 a pixel)")
        }
        return try pixels.withUnsafeBytes { bytes in
            try run(PixelBuffer(format: .rgb8, width: width, height: height, bytesPerRow: width * 3, bytes: bytes),
                    options: options).detections
        }
    }

    /// Decodes the image file at `path` and detects in it, with timings; `options` for this call only.
    public func run(imageAt path: String, options: DetectionOptions? = nil) throws -> DetectionResult {
        var decodeTime = Duration.zero
        let image = try measure(&decodeTime) { try decoder.decode(contentsOf: path) }
        return try run(image, options: options, decodeTime: decodeTime)
    }

    /// Decodes an encoded image (JPEG or PNG bytes; `name` is what its errors call it) and detects in
    /// it, with timings; `options` for this call only.
    public func run(encoded bytes: [UInt8], name: String = "<memory>", options: DetectionOptions? = nil) throws -> DetectionResult {
        var decodeTime = Duration.zero
        let image = try measure(&decodeTime) { try decoder.decode(bytes, name: name) }
        return try run(image, options: options, decodeTime: decodeTime)
    }

    /// Detects in a decoded image, with timings; `options` for this call only (default: the
    /// detector's); `decodeTime` is reported as the decode stage.
    public func run(_ image: RGBImage, options: DetectionOptions? = nil, decodeTime: Duration = .zero) throws -> DetectionResult {
        try image.pixels.withUnsafeBytes { bytes in
            try run(PixelBuffer.rgb(image, bytes: bytes), options: options, decodeTime: decodeTime)
        }
    }

    /// Detects in the pixels of `buffer`, with timings; `options` for this call only (default: the
    /// detector's); `decodeTime` is reported as the decode stage.
    public func run(_ buffer: PixelBuffer, options: DetectionOptions? = nil, decodeTime: Duration = .zero) throws -> DetectionResult {
        let options = options ?? self.options
        if options != self.options { try Self.validate(options, for: model) }
        var timings = StageTimings()
        timings.decode = decodeTime
        let stride = model.maximumStride
        let preprocessor = Preprocessor(options: PreprocessOptions(
            imageSize: PreprocessOptions.strideAligned(options.imageSize, stride: stride), mode: options.resize, stride: stride),
            parallel: .computeThreads, kernels: .active)
        // Checked (and, under an address-space limit, admitted beside other threads' passes) before
        // anything of the input's size is allocated; the pass's tensors are given back when the closure returns.
        let planned = preprocessor.geometry(width: buffer.width, height: buffer.height)
        let (detections, geometry): ([Detection], PreprocessGeometry)
        do {
            (detections, geometry) = try model.runWithActivationMemory(height: planned.inputHeight, width: planned.inputWidth,
                                                                        limit: options.memoryLimit) {
                let (preprocessed, geometry) = measure(&timings.preprocess) { () -> (Tensor, PreprocessGeometry) in
                    let (canvas, geometry) = preprocessor.canvas(for: buffer)
                    let input = Tensor(uninitializedShape: [1, 3, canvas.height, canvas.width])  // writeCHW writes every float
                    Preprocessor.writeCHW(canvas, into: input.buffer, parallel: preprocessor.parallel, kernels: preprocessor.kernels)
                    return (input, geometry)
                }
                // [1, 4 + nc + extras, anchors] (+ prototypes). The model is handed the input's only
                // reference, so that its storage serves the layers after the first.
                var input: Tensor? = consume preprocessed
                let head = try measure(&timings.inference) { try model.run(input.take()!, endToEnd: options.endToEnd) }
                let detections = try measure(&timings.postprocess) { () throws -> [Detection] in
                    var endToEndSelection = options.endToEndSelection
                    endToEndSelection?.labels = labels
                    return try TaskPostprocessing(postprocessor: Postprocessor(options: options.postprocessOptions, labels: labels),
                                                  classCount: model.classCount, extras: model.headExtras, geometry: geometry,
                                                  endToEndSelection: endToEndSelection).detections(head)
                }
                return (detections, geometry)
            }
        } catch let shortfall as ActivationMemoryShortfall {
            throw DetectorError(shortfall, inputWidth: planned.inputWidth, inputHeight: planned.inputHeight)
        }
        return DetectionResult(detections: detections, imageWidth: buffer.width, imageHeight: buffer.height,
                               inputWidth: geometry.inputWidth, inputHeight: geometry.inputHeight, timings: timings)
    }
}
