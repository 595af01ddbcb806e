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

        let fixture = try UltralyticsExpectation.load("Tests/Fixtures/detections/default.json")
        let images = fixture.results.map { Fixtures.path($0.image) }
        let detect = try Self.run(["detect", "--json"] + images, kernels: name)
        #expect(detect.status == 0, "\(name): \(detect.stderr)")
        #expect(detect.lines.count == fixture.results.count, "\(name): \(detect.lines.count) lines for \(fixture.results.count) images")
        for (line, reference) in zip(detect.lines, fixture.results) {
            let found = try DetectJSONLine(line)
            #expect(found.width == reference.width && found.height == reference.height, "\(name) \(reference.image): image size")
            ParityTests.match.expectMatch(found.detections, reference.detections, context: "\(name) \(reference.image)")
        }
    }

    /// A set the CPU lacks, or no set of that name, is refused with the sets it has (exit 64).
    @Test func forcingAnUnknownSetSaysWhatThisCPURuns() throws {
        let run = try Self.run(["detect", "../shared/images/bus.jpg"], kernels: "sse9")
        #expect(run.status == 64)
        #expect(run.stderr.contains("SWIFTYOLO_KERNELS=sse9 names no kernel set; this binary has baseline"), "\(run.stderr)")
        // `--version` says it once, beside the sets the binary has.
        let version = try Self.run(["--version"], kernels: "sse9")
        #expect(version.status == 0 && version.lines.last?.hasPrefix("kernels: none: SWIFTYOLO_KERNELS=sse9 names no kernel set; ") == true,
                "\(version.stdout)")
        #expect(version.stdout.components(separatedBy: "this binary has").count == 2, "\(version.stdout)")
        if let missing = KernelSets.all.first(where: { !KernelSets.isSupported($0) }) {
            let refused = try Self.run(["detect", "../shared/images/bus.jpg"], kernels: missing.name)
            #expect(refused.status == 64 && refused.stderr.contains("this CPU (\(KernelSets.cpuName)) lacks"), "\(refused.stderr)")
        }
    }
}
