import Foundation
import Testing
import SwiftYOLO
import YOLOImage
import YOLOVideo

/// The library API: pixels in memory give what the file gives; bad pixels and options are typed
/// errors; one detector serves several threads.
@Suite struct DetectorTests {
    static let bus = Fixtures.path("../shared/images/bus.jpg")

    @Test func pixelsGiveWhatTheFileGives() throws {
        let detector = try Detector(modelPath: try Fixtures.referenceWeights())
        let image = try ImageDecoder().decode(contentsOf: Self.bus)
        let fromFile = try detector.detect(imageAt: Self.bus)
        let fromPixels = try detector.detect(pixels: image.pixels, width: image.width, height: image.height)
        #expect(fromFile == fromPixels)
        #expect(fromFile.map(\.label) == ["bus", "person", "person", "person", "person"])
    }

    /// bus.jpg handed over as a camera would, in each packed format with padded rows, gives exactly
    /// the file's detections; as YUV 4:2:0 (I420 and NV12), exactly the detections of the same planes
    /// converted to RGB first, as `swift-yolo video` converts them.
    @Test func pixelBuffersGiveWhatTheFileGives() throws {
        let detector = try Detector(modelPath: try Fixtures.referenceWeights())
        let image = try ImageDecoder().decode(contentsOf: Self.bus)
        let fromFile = try detector.detect(imageAt: Self.bus)
        let (width, height) = (image.width, image.height)
        for format in [PixelBuffer.Format.rgb8, .bgr8, .rgba8, .bgra8] {
            let bpp = format.bytesPerPixel ?? 0
            let bytesPerRow = (width * bpp + 63) / 64 * 64 + 64  // 64-byte aligned, then a spare 64
            var bytes = [UInt8](repeating: 0xA5, count: bytesPerRow * height)
            let order = format == .bgr8 || format == .bgra8 ? [2, 1, 0] : [0, 1, 2]
            for y in 0..<height {
                for x in 0..<width {
                    for (k, channel) in order.enumerated() {
                        bytes[y * bytesPerRow + x * bpp + k] = image.pixels[(y * width + x) * 3 + channel]
                    }
                }
            }
            let detections = try bytes.withUnsafeBytes { raw in
                try detector.detect(in: PixelBuffer(format: format, width: width, height: height, bytesPerRow: bytesPerRow, bytes: raw))
            }
            #expect(detections == fromFile, "\(format)")
        }
        // YUV 4:2:0 planes of the image (BT.601 limited range), and the RGB they stand for.
        let planes = Y4MWriter.planes(of: image, chroma: .c420jpeg)
        let converted = YUVToRGB(range: .limited).convert(planes, width: width, height: height, chroma: .c420jpeg)
        let expected = try detector.run(converted).detections
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        let y = Array(planes[0..<(width * height)])
        let u = Array(planes[(width * height)..<(width * height + cw * ch)])
        let v = Array(planes[(width * height + cw * ch)...])
        let uv = (0..<(cw * ch)).flatMap { [u[$0], v[$0]] }
        let i420 = try y.withUnsafeBytes { yb in try u.withUnsafeBytes { ub in try v.withUnsafeBytes { vb in
            try detector.detect(in: PixelBuffer(format: .i420, width: width, height: height, planes: [
                .init(bytes: yb, bytesPerRow: width), .init(bytes: ub, bytesPerRow: cw), .init(bytes: vb, bytesPerRow: cw)]))
        }}}
        let nv12 = try y.withUnsafeBytes { yb in try uv.withUnsafeBytes { uvb in
            try detector.detect(in: PixelBuffer(format: .nv12, width: width, height: height, planes: [
                .init(bytes: yb, bytesPerRow: width), .init(bytes: uvb, bytesPerRow: 2 * cw)]))
        }}
        #expect(i420 == expected)
        #expect(nv12 == expected)
        // What 4:2:0 costs against the file: the same objects; the chroma subsampling and the
        // codes' rounding move confidences by at most 0.02 and boxes by at most 2 px here.
        #expect(expected.map(\.label) == fromFile.map(\.label))
        for (got, want) in zip(expected, fromFile) {
            #expect(abs(got.confidence - want.confidence) <= 0.02, "\(got) vs \(want)")
            for (a, b) in [(got.box.x1, want.box.x1), (got.box.y1, want.box.y1), (got.box.x2, want.box.x2), (got.box.y2, want.box.y2)] {
                #expect(abs(a - b) <= 2, "\(got) vs \(want)")
            }
        }
    }

    /// Masks are mapped back through the letterbox: a segmentation model refuses stretch and crop.
    @Test func segmentationRefusesResizeModesItsMasksCannotMap() throws {
        let detector = try Detector(modelPath: Fixtures.path("Weights/yolo11n-seg.swyolo"))
        for mode in [ResizeMode.stretch, .crop] {
            var options = DetectionOptions()
            options.resize = mode
            #expect(throws: DetectorError.self) { try detector.detect(imageAt: Self.bus, options: options) }
        }
        var square = DetectionOptions()
        square.resize = .square
        #expect(try detector.detect(imageAt: Self.bus, options: square).contains { $0.mask != nil })
    }

    @Test func badPixelsAreTypedErrors() throws {
        let detector = try Detector(modelPath: try Fixtures.referenceWeights())
        #expect(throws: DetectorError.self) { try detector.detect(pixels: [1, 2, 3], width: 2, height: 2) }
        #expect(throws: DetectorError.self) { try detector.detect(pixels: [], width: 0, height: 0) }
        #expect(throws: DetectorError.self) { try detector.detect(pixels: [0, 0, 0], width: -1, height: -3) }
        #expect(throws: DetectorError.self) { try detector.detect(pixels: [], width: 100_000, height: 100_000) }
    }

    /// A size whose byte count overflows is refused, not trapped on, however large the decoder's limit.
    @Test func pixelSizesPastIntAreTypedErrors() throws {
        let detector = try Detector(modelPath: try Fixtures.referenceWeights(), decoder: ImageDecoder(maxPixels: .max))
        #expect(throws: DetectorError.self) { try detector.detect(pixels: [], width: 1 << 40, height: 1 << 22) }
    }

    /// A model file that cannot serve is `DetectorError.unusableModel`, whose message names the file.
    @Test func unusableModelFilesAreTypedErrors() throws {
        for (path, problem) in [("/nonexistent.swyolo", "cannot read"), (Self.bus, "not a SwiftYOLO tensor file")] {
            do {
                _ = try Detector(modelPath: path)
                Issue.record("\(path) loaded as a model")
            } catch let error as DetectorError {
                guard case let .unusableModel(failedPath, reason) = error else { Issue.record("\(error)"); continue }
                #expect(failedPath == path)
                #expect(reason.contains(path) && reason.contains(problem), "\(reason)")
                #expect(error.localizedDescription == reason)
            }
        }
    }

    @Test func optionsAreCheckedAgainstTheModel() throws {
        let weights = try Fixtures.referenceWeights()
        var options = DetectionOptions()
        options.classes = [80]
        #expect(throws: DetectorError.self) { try Detector(modelPath: weights, options: options) }
        #expect(throws: DetectorError.self) { try Detector(modelPath: weights, labels: LabelMap(names: ["a", "b"])) }
    }

    /// An input whose memory plan is over `memoryLimit` is refused before its pass with its size and
    /// both numbers; the address-space case says what limits it.
    @Test func inputsOverTheMemoryLimitAreRefused() throws {
        let detector = try Detector(modelPath: try Fixtures.referenceWeights())
        var tight = DetectionOptions()
        tight.memoryLimit = 1 << 20
        let error = try #require(throws: DetectorError.self) { try detector.detect(imageAt: Self.bus, options: tight) }
        guard case let .overMemoryLimit(width, height, planned, limit) = error else { Issue.record("\(error)"); return }
        #expect(width == 480 && height == 640 && limit == 1 << 20 && planned > limit, "\(error)")
        #expect(error.description.hasPrefix("a 480×640 input needs about ") && error.description.hasSuffix(
            " MB for activations, over the memory limit of 1.0 MB"), "\(error)")
        tight.memoryLimit = planned
        #expect(try detector.detect(imageAt: Self.bus, options: tight).count == 5, "the plan itself is enough")
        #expect(DetectorError.overAddressSpace(inputWidth: 640, inputHeight: 480, plannedBytes: 37 << 20, limitBytes: 131 << 20).description
                == "a 640×480 input needs about 37.0 MB for activations, which this process could not reserve under its "
                + "address-space limit (ulimit -v) of 131.0 MB")
    }

    /// Options given to one call apply to that call only, and equal a detector built with them.
    @Test func optionsPerCallEqualADetectorWithThem() throws {
        let detector = try Detector(contentsOf: URL(fileURLWithPath: try Fixtures.referenceWeights()))
        var strict = DetectionOptions()
        strict.confidenceThreshold = 0.8
        strict.classes = [0]
        let perCall = try detector.detect(contentsOf: URL(fileURLWithPath: Self.bus), options: strict)
        let dedicated = try Detector(model: detector.model, options: strict).detect(imageAt: Self.bus)
        #expect(perCall == dedicated)
        #expect(perCall.count == 3 && perCall.allSatisfy { $0.classId == 0 && $0.confidence >= 0.8 }, "\(perCall)")
        #expect(try detector.detect(imageAt: Self.bus).count == 5, "the detector's own options are unchanged")
        var bad = DetectionOptions()
        bad.classes = [80]
        #expect(throws: DetectorError.invalidOptions(reason: "class id 80 is outside 0..<80")) { try detector.detect(imageAt: Self.bus, options: bad) }
    }

    /// Encoded bytes give the file's detections, and their errors carry the name given.
    @Test func encodedBytesEqualTheFile() throws {
        let detector = try Detector(modelPath: try Fixtures.referenceWeights())
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.bus)))
        var options = DetectionOptions()
        options.classes = [0]
        let fromBytes = try detector.run(encoded: bytes, name: "upload.jpg", options: options)
        #expect(fromBytes.detections == (try detector.run(imageAt: Self.bus, options: options)).detections)
        #expect(fromBytes.detections.count == 4 && fromBytes.timings.decode > .zero, "\(fromBytes)")
        do {
            _ = try detector.run(encoded: Array(bytes.prefix(600)), name: "upload.jpg")
            Issue.record("a truncated JPEG was detected in")
        } catch {
            #expect(error.localizedDescription.contains("upload.jpg"), "\(error.localizedDescription)")
        }
    }

    /// Errors say what is wrong through `localizedDescription` too, and results round-trip through JSON.
    @Test func errorsAreLocalizedAndResultsCodable() throws {
        let detector = try Detector(modelPath: try Fixtures.referenceWeights())
        do {
            _ = try detector.detect(imageAt: "/nonexistent.jpg")
            Issue.record("a missing image was detected in")
        } catch {
            #expect(error.localizedDescription == "cannot read '/nonexistent.jpg': No such file or directory")
        }
        #expect(throws: (any Error).self) { try Detector(contentsOf: URL(string: "https://example.com/m.swyolo")!) }
        let result = try detector.run(imageAt: Self.bus)
        let decoded = try JSONDecoder().decode(DetectionResult.self, from: JSONEncoder().encode(result))
        #expect(decoded == result)
    }

    /// A segmentation result round-trips through JSON equal, its masks now stored over their pixels'
    /// bounding boxes; a result claiming a negative or over-gigapixel image is refused when decoded.
    @Test func segmentationResultsRoundTripAndBadSizesAreRefused() throws {
        let detector = try Detector(modelPath: Fixtures.path("Weights/yolo11n-seg.swyolo"))
        let result = try detector.run(imageAt: Self.bus)
        #expect(result.detections.contains { $0.mask != nil })
        let json = try JSONEncoder().encode(result)
        let decoded = try JSONDecoder().decode(DetectionResult.self, from: json)
        #expect(decoded == result)
        #expect(decoded.foregroundMask() == result.foregroundMask())
        var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        for (key, value) in [("imageWidth", -1), ("imageHeight", 1 << 31)] {
            var bad = object
            bad[key] = value
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(DetectionResult.self, from: JSONSerialization.data(withJSONObject: bad))
            }
        }
        object["detections"] = []
        #expect(try JSONDecoder().decode(DetectionResult.self, from: JSONSerialization.data(withJSONObject: object)).detections.isEmpty)
    }

    /// `addingFaces()` estimates each person's face from a pose model's keypoints, as `detect --faces` does.
    @Test func facesFromPoseKeypoints() throws {
        let detector = try Detector(modelPath: Fixtures.path("Weights/yolo11n-pose.swyolo"))
        let result = try detector.run(imageAt: Fixtures.path("../shared/images/zidane.jpg"))
        #expect(result.detections.allSatisfy { $0.face == nil })
        let faces = result.addingFaces().detections.compactMap(\.face)
        #expect(faces.count == 2 && faces.filter(\.frontal).count == 1, "\(faces)")
        let plain = try Detector(modelPath: try Fixtures.referenceWeights()).run(imageAt: Self.bus)
        #expect(plain.addingFaces() == plain, "no keypoints, no faces")
    }

    @Test func tinyAndExtremeAspectImagesRun() throws {
        let detector = try Detector(modelPath: try Fixtures.referenceWeights())
        for (width, height) in [(1, 1), (3, 700), (900, 2), (31, 33)] {
            let pixels = [UInt8](repeating: 128, count: width * height * 3)
            let detections = try detector.detect(pixels: pixels, width: width, height: height)
            #expect(detections.allSatisfy { $0.box.x1 >= 0 && $0.box.x2 <= Float(width) && $0.box.y1 >= 0 && $0.box.y2 <= Float(height) })
        }
    }

    @Test func oneDetectorServesSeveralThreads() async throws {
        let detector = try Detector(modelPath: try Fixtures.referenceWeights())
        let expected = try detector.detect(imageAt: Self.bus)
        let results = try await withThrowingTaskGroup(of: [Detection].self) { group in
            for _ in 0..<4 { group.addTask { try detector.detect(imageAt: Self.bus) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 4)
        #expect(results.allSatisfy { $0 == expected })
    }
}
