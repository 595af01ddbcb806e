import Foundation
import Testing

/// `inspect` and `verify` on the segmentation and pose models: the task, Ultralytics' parameter
/// counts, and every golden row within its bound, through the command as users run it.
@Suite struct TaskCommandLineTests {
    @Test(arguments: [("yolo11n-seg", "segment", "2,876,848 parameters as stored, 2,868,664 with BatchNorm folded", "yolo11n-seg-bus-160x128"),
                      ("yolo11n-pose", "pose (17 keypoints × 3)", "2,874,462 parameters as stored, 2,866,468 with BatchNorm folded", "yolo11n-pose-zidane-128x160")])
    func inspectAndVerify(_ model: String, task: String, totals: String, golden: String) throws {
        let weights = Fixtures.path("Weights/\(model).swyolo")
        _ = try Fixtures.require(weights)
        let inspect = try CommandLineTests.swiftYOLO(["inspect", weights])
        #expect(inspect.status == 0 && inspect.stdout.contains("  task \(task), scale n") && inspect.stdout.contains(totals), "\(inspect.stdout)")
        let verify = try CommandLineTests.swiftYOLO(["verify", "--model", weights, Fixtures.path("Tests/Fixtures/golden/\(golden).swyolo")])
        #expect(verify.status == 0 && verify.stdout.contains("PASS: every layer within its bound"), "\(verify.stdout)")
        let extras = task == "segment" ? ["model.23 mask coefficients", "model.23.proto"] : ["model.23 keypoints", "model.23 keypoint visibility"]
        for row in extras { #expect(verify.stdout.contains(row), "verify reports \(row)") }
    }
}
