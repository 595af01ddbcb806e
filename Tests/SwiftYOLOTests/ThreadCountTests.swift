import Foundation
import Testing

/// A forward pass computes the same numbers whatever its thread count: each layer's work is split
/// without changing any sum's order, and a head's branches run one per thread where the threads can
/// share them out evenly (two threads; three for the pose head), else each across every thread (one
/// thread; three for the others).
/// Checked through `detect --threads` on every task's model, the end-to-end head included: the
/// JSON lines, masks and keypoints with them, must be the same bytes but for the timings.
@Suite struct ThreadCountTests {
    @Test(arguments: [("yolo11n", []), ("yolo11n-seg", []), ("yolo11n-pose", []), ("yolo26n", []), ("yolo26n", ["--end2end"])])
    func detectionsAreTheSameOnOneTwoAndThreeThreads(_ model: String, extra: [String]) throws {
        let weights = Fixtures.path("Weights/\(model).swyolo")
        _ = try Fixtures.require(weights)
        var outputs: [Int: [Any]] = [:]
        for threads in [1, 2, 3] {
            let run = try CommandLineTests.swiftYOLO(["detect", "--json", "--model", weights, "--threads", String(threads)] + extra
                                                     + [CommandLineTests.bus, CommandLineTests.zidane])
            try #require(run.status == 0, "\(model) --threads \(threads): \(run.stderr)")
            outputs[threads] = try run.lines.map { line in
                var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                object["timing_ms"] = nil
                return object
            }
        }
        let one = try #require(outputs[1])
        #expect(one.count == 2)
        #expect(one.allSatisfy { (($0 as? [String: Any])?["detections"] as? [Any])?.isEmpty == false }, "\(model): both images have detections")
        for threads in [2, 3] {
            let other = try #require(outputs[threads])
            #expect(NSArray(array: other).isEqual(to: one), "\(model) \(extra): --threads \(threads) differs from --threads 1")
        }
    }
}
