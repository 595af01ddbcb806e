import Foundation
import Testing
import SwiftYOLO
import YOLOImage

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

    @Test func badPixelsAreTypedErrors() throws {
        let detector = try Detector(modelPath: try Fixtures.referenceWeights())
        #expect(throws: DetectorError.self) { try detector.detect(pixels: [1, 2, 3], width: 2, height: 2) }
        #expect(throws: DetectorError.self) { try detector.detect(pixels: [], width: 0, height: 0) }
        #expect(throws: DetectorError.self) { try detector.detect(pixels: [0, 0, 0], width: -1, height: -3) }
        #expect(throws: DetectorError.self) { try detector.detect(pixels: [], width: 100_000, height: 100_000) }
    }

    @Test func optionsAreCheckedAgainstTheModel() throws {
        let weights = try Fixtures.referenceWeights()
        var options = DetectionOptions()
        options.classes = [80]
        #expect(throws: DetectorError.self) { try Detector(modelPath: weights, options: options) }
        #expect(throws: DetectorError.self) { try Detector(modelPath: weights, labels: LabelMap(names: ["a", "b"])) }
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
