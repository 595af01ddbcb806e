import Foundation
import Testing
import SwiftYOLO
import YOLOKernelSets

/// The whole pipeline once per kernel set the CPU runs (`SWIFTYOLO_KERNELS`, in a process of its
/// own, since the choice is made once per process): every golden within its bounds, and
/// Ultralytics' detections on the default-argument parity images. Sets this CPU cannot run are
/// skipped, and the output says so.
@Suite struct KernelSetTests {
    static let goldens: [(weights: String, golden: String)] = [
        ("Weights/yolo11n.swyolo", "Tests/Fixtures/golden/yolo11n-bus-320x256.swyolo"),
        ("Tests/Fixtures/generated/yolo11n-random38.swyolo", "Tests/Fixtures/golden/yolo11n-random38-seed7-160x128.swyolo"),
        ("Tests/Fixtures/generated/yolo11m-random.swyolo", "Tests/Fixtures/golden/yolo11m-random-seed11-128x96.swyolo"),
    ]

    static func run(_ arguments: [String], kernels: String) throws -> CommandLineTests.Run {
        try CommandLineTests.runProcess(CommandLineTests.swiftYOLOExecutable, arguments, environment: ["SWIFTYOLO_KERNELS": kernels])
    }

    @Test(arguments: KernelSets.all.map(\.name))
    func goldensAndParityHoldForEverySet(_ name: String) throws {
        guard let set = KernelSets.all.first(where: { $0.name == name }), KernelSets.isSupported(set) else {
            print("skipped: the \(name) kernel set, which this CPU (\(KernelSets.cpuName)) cannot run")
            return
        }
        for (weights, golden) in Self.goldens {
            let verify = try Self.run(["verify", "--model", weights, golden], kernels: name)
            #expect(verify.status == 0 && verify.stdout.contains("PASS: every layer within its bound"), "\(name) \(golden): \(verify.stdout.suffix(600))")
        }
        let inspect = try Self.run(["inspect"], kernels: name)
        #expect(inspect.stdout.contains("  kernels \(name) ("), "\(inspect.stdout)")

        let fixture = try JSONDecoder().decode(ParityTests.Expected.self,
                                               from: Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Tests/Fixtures/detections/default.json"))))
        let images = fixture.results.map { Fixtures.path($0.image) }
        let detect = try Self.run(["detect", "--json"] + images, kernels: name)
        #expect(detect.status == 0, "\(name): \(detect.stderr)")
        for (line, reference) in zip(detect.lines, fixture.results) {
            let object = try CommandLineTests.jsonObject(line)
            let found = try #require(object["detections"] as? [[String: Any]])
            #expect(found.count == reference.detections.count, "\(name) \(reference.image): \(found.count) detections, Ultralytics has \(reference.detections.count)")
            var unmatched = found
            for want in reference.detections {
                func error(_ got: [String: Any]) -> Float {
                    let box = (got["box"] as? [Double] ?? []).map(Float.init)
                    guard box.count == 4 else { return .infinity }
                    return max(abs(box[0] - want.box.x1), abs(box[1] - want.box.y1), abs(box[2] - want.box.x2), abs(box[3] - want.box.y2))
                }
                let candidates = unmatched.indices.filter { unmatched[$0]["class"] as? Int == want.classId }
                guard let index = candidates.min(by: { error(unmatched[$0]) < error(unmatched[$1]) }) else {
                    Issue.record("\(name) \(reference.image): missing \(want.label) \(want.confidence)")
                    continue
                }
                let confidence = Float(unmatched[index]["confidence"] as? Double ?? -1)
                #expect(abs(confidence - want.confidence) <= ParityTests.confidenceTolerance, "\(name) \(reference.image): \(want.label) confidence \(confidence), Ultralytics \(want.confidence)")
                #expect(error(unmatched[index]) <= ParityTests.boxTolerance, "\(name) \(reference.image): \(want.label) box off by \(error(unmatched[index])) px")
                unmatched.remove(at: index)
            }
        }
    }

    /// A set the CPU lacks, or no set of that name, is refused with the sets it has (exit 64).
    @Test func forcingAnUnknownSetSaysWhatThisCPURuns() throws {
        let run = try Self.run(["detect", "../shared/images/bus.jpg"], kernels: "sse9")
        #expect(run.status == 64)
        #expect(run.stderr.contains("SWIFTYOLO_KERNELS=sse9 names no kernel set; this binary has baseline"), "\(run.stderr)")
        if let missing = KernelSets.all.first(where: { !KernelSets.isSupported($0) }) {
            let refused = try Self.run(["detect", "../shared/images/bus.jpg"], kernels: missing.name)
            #expect(refused.status == 64 && refused.stderr.contains("this CPU (\(KernelSets.cpuName)) lacks"), "\(refused.stderr)")
        }
    }
}
