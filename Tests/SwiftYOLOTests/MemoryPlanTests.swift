import Foundation
import Testing

/// The memory plan (`DetectionModel.plannedActivationBytes`), which refuses an input size before
/// its first pass, against the tensors a pass really holds at once (`bench --json`: `peak_tensor_mb`,
/// the buffer pool's high-water mark, in a process of its own). It must lie above the peak, or an
/// input it lets through can exhaust the limit, and within twice it, or it refuses sizes that fit.
/// On every task's model and on 1, 2 and 3 threads, where heads run their branches side by side or not.
/// And the tensor arena, the tensor memory the process touched, lies between the peak and the plan.
@Suite struct MemoryPlanTests {
    @Test(arguments: ["yolo11n", "yolo11n-seg", "yolo11n-pose", "yolo26n"], [320, 640])
    func planBoundsTheMeasuredPeak(_ model: String, imgsz: Int) throws {
        let weights = Fixtures.path("Weights/\(model).swyolo")
        _ = try Fixtures.require(weights)
        for threads in [1, 2, 3] {
            let run = try CommandLineTests.swiftYOLO(["bench", "--json", "--runs", "1", "--warmup", "0", "--imgsz", String(imgsz),
                                                      "--threads", String(threads), "--model", weights])
            try #require(run.status == 0, "\(model) --threads \(threads): \(run.stderr)")
            let report = try CommandLineTests.jsonObject(run.stdout)
            let peak = try #require(report["peak_tensor_mb"] as? Double)
            let planned = try #require(report["planned_tensor_mb"] as? Double)
            let arena = try #require(report["arena_mb"] as? Double)
            #expect(peak > 0)
            #expect(arena >= peak && arena <= planned, "\(model) at \(imgsz), \(threads) threads: arena \(arena) MB, peak \(peak) MB, planned \(planned) MB")
            #expect(peak <= planned, "\(model) at \(imgsz), \(threads) threads: measured \(peak) MB, planned \(planned) MB")
            #expect(planned <= 2 * peak, "\(model) at \(imgsz), \(threads) threads: measured \(peak) MB, planned \(planned) MB")
        }
    }
}
