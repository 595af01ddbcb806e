import Foundation
import Testing
import SwiftYOLO
import YOLOModel
import TestSupport

/// Heavy and hostile use of the whole stack: one detector shared by many threads, output files that
/// never appear half-written, and model files that lie about their network.
@Suite struct ReliabilityTests {
    static let images = ["../shared/images/bus.jpg", "../shared/images/zidane.jpg",
                         "Tests/Fixtures/images/parity/exif6_zidane.jpg", "Tests/Fixtures/images/parity/rgba_zidane.png"]
        .map(Fixtures.path)

    // MARK: - Concurrency

    /// Eight threads share one `Detector`, each running every image twice in its own order; every
    /// result equals the single-threaded one exactly. (`Benchmarks/concurrency.sh` does 2,000.)
    @Test func eightThreadsShareOneDetector() throws {
        var options = DetectionOptions()
        options.imageSize = 320
        let detector = try Detector(modelPath: try Fixtures.referenceWeights(), options: options)
        let reference = try Self.images.map { try detector.detect(imageAt: $0) }
        #expect(reference.allSatisfy { !$0.isEmpty })

        final class Results: @unchecked Sendable {  // appended to under `lock` only
            let lock = NSLock()
            var list: [(image: Int, detections: Result<[Detection], any Error>)] = []
        }
        let results = Results()
        let group = DispatchGroup()
        for thread in 0..<8 {
            group.enter()
            Thread {
                defer { group.leave() }
                for step in 0..<(2 * Self.images.count) {
                    let image = (thread + step) % Self.images.count
                    let detections = Result { try detector.detect(imageAt: Self.images[image]) }
                    results.lock.withLock { results.list.append((image, detections)) }
                }
            }.start()
        }
        group.wait()
        #expect(results.list.count == 8 * 2 * Self.images.count)
        for (image, detections) in results.list {
            #expect(try detections.get() == reference[image], "\(Self.images[image])")
        }
    }

    // MARK: - Atomic outputs

    /// What happens to a write past the file-size limit: the write fails (EFBIG), or the process is
    /// killed mid-write by SIGXFSZ, as by a kill -9 or a power cut.
    enum FileSizeLimit { case none, failsWrites(bytes: Int), killsProcess(bytes: Int) }

    /// Runs the built `swift-yolo` under `limit` (through python3, which sets the limit, the SIGXFSZ
    /// disposition and its mask explicitly: the test runner's are inherited, and it blocks the signal).
    static func swiftYOLO(_ arguments: [String], limit: FileSizeLimit = .none) throws -> CommandLineTests.Run {
        let executable = CommandLineTests.swiftYOLOExecutable.path
        let (bytes, disposition): (Int, String) = switch limit {
        case .none: (-1, "SIG_DFL")
        case let .failsWrites(bytes): (bytes, "SIG_IGN")
        case let .killsProcess(bytes): (bytes, "SIG_DFL")
        }
        let wrapper = """
            import os, resource, signal, sys
            signal.signal(signal.SIGXFSZ, signal.\(disposition))
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGXFSZ])
            if \(bytes) >= 0: resource.setrlimit(resource.RLIMIT_FSIZE, (\(bytes), \(bytes)))
            os.execv(sys.argv[1], sys.argv[1:])
            """
        return try CommandLineTests.runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", wrapper, executable] + arguments,
                                               environment: ["SWIFT_BACKTRACE": "enable=no"])
    }

    static func freshDirectory(_ name: String) throws -> String {
        let directory = try ScratchDirectory.fresh("reliability-" + name)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A `--save` whose write fails half-way (the file-size limit, 16 KB, is hit while the ~1 MB PNG
    /// is written) reports the image as failed (exit 74, writing failed) and leaves neither the file nor its temporary, and an
    /// earlier file of that name is left as it was.
    /// The sanitizer runtimes keep file-backed memory that a 16 KB file-size limit breaks (SIGBUS), so
    /// the file-size tests run without ThreadSanitizer (`make sanitize-thread` sets TSAN_OPTIONS).
    static let fileSizeLimitsWork = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil

    /// Whether the tests run under a sanitizer (`make sanitize-address`, `sanitize-thread`, which
    /// set these variables).
    static let underSanitizer = ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"].contains { ProcessInfo.processInfo.environment[$0] != nil }

    @Test(.enabled(if: fileSizeLimitsWork, "file-size limits break ThreadSanitizer's runtime"))
    func failedSaveLeavesNoFileAndKeepsTheOldOne() throws {
        let directory = try Self.freshDirectory("failed")
        let run = try Self.swiftYOLO(["detect", "--json", "--save", directory, Self.images[0]], limit: .failsWrites(bytes: 16_384))
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stdout.contains("\"error\": \"cannot write '\(directory)/bus.png': writing failed: File too large\""), "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])

        let old = Data("the previous picture".utf8)
        try old.write(to: URL(fileURLWithPath: directory + "/bus.png"))
        let again = try Self.swiftYOLO(["detect", "--json", "--save", directory, Self.images[0]], limit: .failsWrites(bytes: 16_384))
        #expect(again.status == 74)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["bus.png"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/bus.png")) == old)
    }

    /// A run killed in the middle of writing (kill -9, a power cut) never leaves a partial file under
    /// a final name: every picture there is a whole PNG; only dot-file temporaries can remain.
    @Test func killedSaveNeverLeavesAPartialFile() throws {
        let directory = try Self.freshDirectory("killed")
        let arguments = ["detect", "--save", directory] + Array(repeating: Self.images[0], count: 20)
        let process = try DataSafetyTests.start(arguments.map { Array($0.utf8) }, setup: DataSafetyTests.Setup())
        let deadline = Date().addingTimeInterval(60)
        while (try FileManager.default.contentsOfDirectory(atPath: directory)).filter({ !$0.hasPrefix(".") }).count < 2, Date() < deadline {
            usleep(5_000)
        }
        kill(process.processIdentifier, SIGKILL)
        _ = DataSafetyTests.finish(process)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory)
        let pictures = left.filter { !$0.hasPrefix(".") }
        #expect(pictures.count >= 2)
        for name in pictures {
            let decoded = try ImageDecoder().decode(contentsOf: directory + "/" + name)
            #expect(decoded.width == 810 && decoded.height == 1080, "\(name) is whole")
        }
        #expect(left.filter { $0.hasPrefix(".") }.allSatisfy { $0.hasSuffix(".tmp") }, "\(left)")
    }

    // MARK: - Model files that lie about their network

    /// The tiny every-block model (Tests/Fixtures/generated/tiny-yolo11.swyolo, `make fixtures`) with
    /// `edit` applied to its metadata, written to a temporary file.
    static func tinyModel(_ name: String, edit: (inout [String: Any]) -> Void) throws -> String {
        let path = Fixtures.path("Tests/Fixtures/generated/tiny-yolo11.swyolo")
        _ = try Fixtures.require(path)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        let (metadataLength, tableOffset, tableLength, dataOffset) = (u64(24), u64(32), u64(40), u64(48))
        var metadata = try #require(try JSONSerialization.jsonObject(with: Data(bytes[64..<(64 + metadataLength)])) as? [String: Any])
        edit(&metadata)
        let json = [UInt8](try JSONSerialization.data(withJSONObject: metadata))
        let table = Array(bytes[tableOffset..<(tableOffset + tableLength)])
        let newTableOffset = 64 + json.count, newDataOffset = (newTableOffset + table.count + 63) / 64 * 64
        func le(_ value: Int) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var file = Array(bytes[0..<24]) + le(json.count) + le(newTableOffset) + le(table.count) + le(newDataOffset)
        file += Array(bytes[56..<64]) + json + table + [UInt8](repeating: 0, count: newDataOffset - newTableOffset - table.count)
        file += bytes[dataOffset...]
        return try Fixtures.temporaryFile("tiny-\(name).swyolo", bytes: file)
    }

    /// Layer `index` of the yaml (backbone then head) with `edit` applied.
    static func editLayer(_ metadata: inout [String: Any], _ index: Int, _ edit: (inout [Any]) -> Void) {
        var yaml = metadata["yaml"] as? [String: Any] ?? [:]
        var backbone = yaml["backbone"] as? [Any] ?? [], head = yaml["head"] as? [Any] ?? []
        if index < backbone.count {
            var row = backbone[index] as? [Any] ?? []
            edit(&row)
            backbone[index] = row
        } else {
            var row = head[index - backbone.count] as? [Any] ?? []
            edit(&row)
            head[index - backbone.count] = row
        }
        yaml["backbone"] = backbone
        yaml["head"] = head
        metadata["yaml"] = yaml
    }

    @Test func theTinyModelRunsAsBuilt() throws {
        let path = try Self.tinyModel("unchanged") { _ in }
        let run = try Self.swiftYOLO(["detect", "--json", "--model", path, "--imgsz", "64", Self.images[0]])
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// A stride of 2^62 made the detector ask for a 2^62-pixel input; it is refused, naming the file.
    @Test func absurdStrideIsRefused() throws {
        let path = try Self.tinyModel("stride") { $0["stride"] = [8, 1 << 62] }
        let run = try Self.swiftYOLO(["detect", "--json", "--model", path, Self.images[0]])
        #expect(run.status == 65, "a model that cannot be used")
        // Refused at load: the layers' own strides are 8 and 16, not the file's claim.
        #expect(run.stderr.contains("\(path): layer 12: Detect's inputs have strides [8, 16], the file says [8, 4611686018427387904]"), "\(run.stderr)")
    }

    /// Findings K1–K3 of the model fuzz target (README, "Reliability"): each of these files crashed
    /// `swift-yolo`; now the model builder refuses it at load with a message naming the file and layer.
    @Test(arguments: ["K1 width multiple 1e300", "K1 depth multiple 1e300", "K2 upsample factor 2^62",
                      "K1 conv stride 0", "K2 upsample factor 100000", "K3 first conv stride 4"])
    func hostileModelDescriptionIsRefusedNotCrashed(_ finding: String) throws {
        let path = try Self.tinyModel(finding.split(separator: " ").joined(separator: "-")) { metadata in
            var yaml = metadata["yaml"] as? [String: Any] ?? [:]
            switch finding {
            case "K1 width multiple 1e300": yaml["scales"] = ["t": [1.0, 1e300, 1024]]
            case "K1 depth multiple 1e300": yaml["scales"] = ["t": [1e300, 1.0, 1024]]
            default: break
            }
            metadata["yaml"] = yaml
            switch finding {
            case "K2 upsample factor 2^62": Self.editLayer(&metadata, 8) { $0[3] = ["None", 1 << 62, "nearest"] }
            case "K2 upsample factor 100000": Self.editLayer(&metadata, 8) { $0[3] = ["None", 100_000, "nearest"] }
            case "K3 first conv stride 4": Self.editLayer(&metadata, 0) { $0[3] = [8, 3, 4] }  // Concat then joins 4x4 and 2x2 maps
            case "K1 conv stride 0": Self.editLayer(&metadata, 1) { $0[3] = [8, 3, 0] }
            default: break
            }
        }
        let run = try Self.swiftYOLO(["detect", "--json", "--model", path, "--imgsz", "64", Self.images[0]])
        #expect(run.status == 65 && run.stderr.contains(path), "\(finding): status \(run.status): \(run.stderr.suffix(300))")
    }
}
