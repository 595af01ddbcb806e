import Foundation
import Testing
import TestSupport
import YOLOModel
import YOLOImage

/// `swift-yolo` end to end, as scripts use it: the output contract of DESIGN.md, bad inputs
/// reported one by one while the other images still run, and the exit status.
@Suite struct CommandLineTests {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// Runs the built `swift-yolo` with `arguments` from the repository root.
    static func swiftYOLO(_ arguments: [String]) throws -> Run {
        try runProcess(swiftYOLOExecutable, arguments)
    }

    /// Whether the binary has `serve` (a build with SWIFTYOLO_SERVER=0, as under the sanitizers, has
    /// none; `serve --help` there prints the root's help, with status 0). A binary that does not
    /// answer `--help` fails every other test of it.
    static let hasServe = (try? swiftYOLO(["--help"]))?.stdout.contains("\n  serve ") ?? false

    /// The `swift-yolo` built beside the test bundle.
    static var swiftYOLOExecutable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("swift-yolo")
    }

    /// Runs `executable` from the repository root with the reference weights as the default model;
    /// a death by signal `s` is status `128 + s`, as shells report it.
    static func runProcess(_ executable: URL, _ arguments: [String], environment extra: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Fixtures.repository)
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_YOLO_MODEL"] = try Fixtures.referenceWeights()
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Run(status: status, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func jsonObject(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
    }

    static let bus = "../shared/images/bus.jpg"
    static let zidane = "../shared/images/zidane.jpg"

    @Test func jsonLinesFollowTheContract() throws {
        let run = try Self.swiftYOLO(["detect", "--json", Self.bus])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.count == 1)
        let object = try Self.jsonObject(run.lines[0])
        #expect(Set(object.keys) == ["image", "width", "height", "detections", "timing_ms"])
        #expect(object["image"] as? String == Self.bus)
        #expect(object["width"] as? Int == 810 && object["height"] as? Int == 1080)
        let detections = try #require(object["detections"] as? [[String: Any]])
        #expect(detections.count == 5)
        let first = try #require(detections.first)
        #expect(Set(first.keys) == ["class", "label", "confidence", "box"])
        #expect(first["class"] as? Int == 5 && first["label"] as? String == "bus")
        #expect(abs((first["confidence"] as? Double ?? 0) - 0.9379) < 0.005)
        let box = try #require(first["box"] as? [Double])
        #expect(box.count == 4 && abs(box[0] - 22.5) < 0.5 && abs(box[3] - 733.2) < 0.5)
        let timings = try #require(object["timing_ms"] as? [String: Double])
        #expect(Set(timings.keys) == ["decode", "preprocess", "inference", "postprocess", "total"])
    }

    /// A first run before `make weights`: the default model is missing, and the message says what it
    /// is and how to name another (it said only `Weights/yolo11n.swyolo: cannot read`). A model named
    /// with --model gets no such note.
    @Test func aMissingDefaultModelSaysWhereOneComesFrom() throws {
        let empty = try ScratchDirectory.fresh("no-weights-here")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let bus = Fixtures.path(Self.bus)
        for command in [["detect", bus], ["bench", "--runs", "1"]] {
            let run = try Self.runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["-C", empty, Self.swiftYOLOExecutable.path] + command,
                                          environment: ["SWIFT_YOLO_MODEL": ""])
            #expect(run.status == 65 && run.stderr.contains("Weights/yolo11n.swyolo: cannot read: No such file or directory (the default model, "
                                                             + "which `make weights` converts in a SwiftYOLO checkout; or give --model PATH or set SWIFT_YOLO_MODEL)"),
                    "\(command): \(run.status) \(run.stderr)")
        }
        let named = try Self.swiftYOLO(["detect", "--model", empty + "/m.swyolo", bus])
        #expect(named.status == 65 && named.stderr.hasSuffix("m.swyolo: cannot read: No such file or directory\n"), "\(named.stderr)")
    }

    @Test func everyKindOfBadImageIsReportedAndTheOthersStillRun() throws {
        let png = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Tests/Fixtures/images/decode/png_rgb8.png")))
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(Self.bus)))
        // bus.jpg claiming 12-bit samples in its frame header, which this libjpeg does not decode.
        var twelveBit = [UInt8](jpeg)
        let frameHeader = try #require((0..<(twelveBit.count - 4)).first { twelveBit[$0] == 0xFF && (0xC0...0xC2).contains(twelveBit[$0 + 1]) })
        twelveBit[frameHeader + 4] = 12
        let bad: [(path: String, message: String)] = [
            (try Fixtures.temporaryFile("truncated.jpg", bytes: Array(jpeg.prefix(jpeg.count / 3))), "truncated"),
            (try Fixtures.temporaryFile("truncated.png", bytes: Array(png.prefix(png.count / 2))), "truncated"),
            (try Fixtures.temporaryFile("corrupt.jpg", bytes: [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0x42, count: 500)), "corrupt"),
            (try Fixtures.temporaryFile("animation.gif", bytes: Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 64)), "only PNG and JPEG"),
            (try Fixtures.temporaryFile("empty.png", bytes: []), "empty"),
            (try Fixtures.temporaryFile("twelve-bit.jpg", bytes: twelveBit), "not supported"),
            ("/nonexistent/photo.jpg", "No such file"),
        ]
        let run = try Self.swiftYOLO(["detect", "--json", Self.bus] + bad.map(\.path) + [Self.zidane])
        #expect(run.status == 1, "a failed image makes the exit status non-zero")
        #expect(run.lines.count == bad.count + 2, "one line per image: \(run.stdout)")
        let objects = try run.lines.map(Self.jsonObject)
        #expect((objects.first?["detections"] as? [Any])?.count == 5, "bus.jpg before the bad files still has its detections")
        #expect((objects.last?["detections"] as? [Any])?.count == 3, "zidane.jpg after the bad files still has its detections")
        for (object, input) in zip(objects.dropFirst(), bad) {
            #expect(Set(object.keys) == ["image", "error"], "\(input.path): \(object)")
            #expect(object["image"] as? String == input.path)
            let message = object["error"] as? String ?? ""
            #expect(message.contains(input.path), "the message names the file: \(message)")
            #expect(message.localizedCaseInsensitiveContains(input.message), "\(input.path): \(message)")
        }
    }

    @Test func imagesOverThePixelLimitAreRefusedFromTheHeader() throws {
        // zidane.jpg has 1280×720 = 921,600 pixels, bus.jpg 810×1080 = 874,800.
        let run = try Self.swiftYOLO(["detect", "--json", "--max-pixels", "900000", Self.zidane, Self.bus])
        #expect(run.status == 1)
        let objects = try run.lines.map(Self.jsonObject)
        #expect((objects[0]["error"] as? String)?.contains("1280x720 pixels exceeds the limit of 900000") == true, "\(objects[0])")
        #expect((objects[1]["detections"] as? [Any])?.count == 5, "bus.jpg is under the limit and still runs")
    }

    @Test func classesByNameAndLabelsFile() throws {
        let labels = try Fixtures.temporaryFile("labels-zh.txt", bytes: Array((0..<80).map { $0 == 0 ? "人" : $0 == 5 ? "公共汽车" : "类别\($0)" }.joined(separator: "\n").utf8))
        let run = try Self.swiftYOLO(["detect", "--json", "--classes", "bus", "--labels", labels, Self.bus])
        #expect(run.status == 0, "\(run.stderr)")
        let detections = try #require(try Self.jsonObject(run.lines[0])["detections"] as? [[String: Any]])
        #expect(detections.count == 1)
        #expect(detections.first?["label"] as? String == "公共汽车")

        let byDisplayName = try Self.swiftYOLO(["detect", "--json", "--classes", "人", "--labels", labels, Self.bus])
        #expect((try Self.jsonObject(byDisplayName.lines[0])["detections"] as? [Any])?.count == 4, "the four people")

        let unknown = try Self.swiftYOLO(["detect", "--classes", "unicorn", Self.bus])
        #expect(unknown.status == 64, "a usage error")
        #expect(unknown.stderr.contains("unknown class 'unicorn'"), "\(unknown.stderr)")
    }

    @Test func agnosticKeepsOneBoxPerPlace() throws {
        // At --conf 0.015 two boxes of different classes cover one place on bus.jpg.
        let perClass = try Self.swiftYOLO(["detect", "--json", "--conf", "0.015", Self.bus])
        let agnostic = try Self.swiftYOLO(["detect", "--json", "--conf", "0.015", "--agnostic", Self.bus])
        let perClassCount = (try Self.jsonObject(perClass.lines[0])["detections"] as? [Any])?.count ?? 0
        let agnosticCount = (try Self.jsonObject(agnostic.lines[0])["detections"] as? [Any])?.count ?? 0
        #expect(agnosticCount < perClassCount, "agnostic NMS drops boxes of other classes in the same place")
        #expect(agnosticCount == 31, "as Ultralytics (Tests/Fixtures/detections/agnostic-conf0.015.json)")
        #expect(perClassCount == agnosticCount + 1)
    }

    @Test func saveWritesAnAnnotatedPNGPerImage() throws {
        let directory = try ScratchDirectory.fresh("saved")
        let run = try Self.swiftYOLO(["detect", "--save", directory, Self.bus, Self.zidane])
        #expect(run.status == 0, "\(run.stderr)")
        for name in ["bus.png", "zidane.png"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(name) is a PNG")
        }
        #expect(run.stdout.contains("saved \(directory)/bus.png"))
        #expect(run.stdout.contains("bus     0.938"), "the table lists the bus: \(run.stdout)")
    }

    /// `--save-format jpg` writes JPEG pictures from the image decoded once for detection.
    @Test func saveWritesJPEGWhenAsked() throws {
        let directory = try ScratchDirectory.fresh("saved-jpg")
        let run = try Self.swiftYOLO(["detect", "--json", "--save", directory, "--save-format", "jpg", Self.bus])
        #expect(run.status == 0, "\(run.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/bus.jpg"))
        #expect(Array(data.prefix(3)) == [0xFF, 0xD8, 0xFF], "bus.jpg is a JPEG")
        #expect((try Self.jsonObject(run.lines[0])["saved"] as? String) == directory + "/bus.jpg")
        let picture = try ImageDecoder().decode(contentsOf: directory + "/bus.jpg")
        #expect(picture.width == 810 && picture.height == 1080)
    }

    /// `--version`: the version, the commit (unknown in a test build: only `make release` and `make
    /// static` say it), the Swift, and the kernel set this CPU gets.
    @Test func versionSaysWhatWasBuiltAndWhatRuns() throws {
        let run = try Self.swiftYOLO(["--version"])
        #expect(run.status == 0)
        #expect(run.lines.count == 2, "\(run.stdout)")
        #expect(run.lines.first?.hasPrefix("swift-yolo 0.2.0 (commit unknown), built with Swift 6.") == true, "\(run.stdout)")
        #expect(run.lines.last?.hasPrefix("kernels: ") == true && run.lines.last?.contains("this binary has baseline") == true,
                "\(run.stdout)")
    }

    @Test func invalidOptionsSayWhatToDo() throws {
        for (arguments, message) in [(["--conf", "1.5"], "--conf must lie in [0, 1]"), (["--imgsz", "0"], "--imgsz must lie in"),
                                     (["--resize", "fill"], "Please provide one of 'letterbox', 'square', 'stretch' or 'crop'"),
                                     (["--format", "yaml"], "Please provide one of 'table', 'json' or 'array'"),
                                     (["--json", "--format", "array"], "--json and --format array contradict each other"),
                                     (["--square", "--resize", "crop"], "--square and --resize crop contradict each other"),
                                     (["--save-format", "gif", "--save", "out"], "Please provide one of 'png' and 'jpg'")] {
            let run = try Self.swiftYOLO(["detect"] + arguments + [Self.bus])
            #expect(run.status != 0)
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let missingModel = try Self.swiftYOLO(["detect", "--model", "/nonexistent/model.swyolo", Self.bus])
        #expect(missingModel.status == 65)
        #expect((missingModel.stdout + missingModel.stderr).contains("/nonexistent/model.swyolo"))
    }

    @Test func inspectReportsUltralyticsParameterCounts() throws {
        let run = try Self.swiftYOLO(["inspect"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("24 layers, 2,624,080 parameters as stored, 2,616,248 with BatchNorm folded"))
    }

    @Test func verifyPassesOnTheFixtureAndFailsOnAnotherModel() throws {
        let pass = try Self.swiftYOLO(["verify", "Tests/Fixtures/golden/yolo11n-bus-320x256.swyolo"])
        #expect(pass.status == 0, "\(pass.stdout)\(pass.stderr)")
        #expect(pass.stdout.contains("PASS"))
        #expect(pass.lines.contains("weights yolo11n.pt: the checkpoint this model was converted from"), "\(pass.stdout)")
        let mismatched = try Self.swiftYOLO(["verify", "Tests/Fixtures/golden/yolo11n-random38-seed7-160x128.swyolo"])
        #expect(mismatched.status != 0, "the reference model does not reproduce a random model's golden tensors")
    }

    /// `verify` traces the golden's weights by their SHA-256: to the model's source checkpoint, to
    /// the model file itself, or to neither, which a failure then names as its likely cause.
    @Test func verifySaysWhetherTheGoldenIsOfTheseWeights() throws {
        let golden = Fixtures.path("Tests/Fixtures/golden/yolo11n-bus-320x256.swyolo")
        let random = try Self.swiftYOLO(["verify", "--model", try Fixtures.require(Fixtures.path("Tests/Fixtures/generated/yolo26n-random20.swyolo")),
                                         Fixtures.path("Tests/Fixtures/golden/yolo26n-random20-seed9-160x128.swyolo")])
        #expect(random.status == 0 && random.lines.contains("weights yolo26n-random20.swyolo: this model file"), "\(random.stdout)")

        // yolo11n with the first digit of its recorded source checksum changed in place: the same
        // numbers, so the verification passes, but the checksums no longer trace the golden to it.
        let recorded = "be56a5a7c6aeaaa7105e03b0a2571c54bbec09ed9a35cce9cd20c8afe9087baf"
        var weights = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.require(Fixtures.path("Weights/yolo11n.swyolo"))))
        let range = try #require(weights.range(of: Data(recorded.utf8)))
        weights[range.lowerBound] = UInt8(ascii: "0")
        let model = try ScratchDirectory.write(Array(weights), to: "verify-weights/yolo11n-other.swyolo")
        let other = try Self.swiftYOLO(["verify", "--model", model, golden])
        #expect(other.status == 0, "\(other.stdout)\(other.stderr)")
        #expect(other.lines.contains("weights yolo11n.pt, sha256 \(recorded): not this model's weights"), "\(other.stdout)")

        // The same model against the golden changed in one element of model.5: the failure names the weights.
        let entry = try #require(try TensorFile(path: golden).entry(named: "model.5"))
        var changed = try Data(contentsOf: URL(fileURLWithPath: golden))
        let offset = entry.fileOffset + 4 * 1234
        let value = Float(bitPattern: changed[offset..<(offset + 4)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }) + 0.01
        withUnsafeBytes(of: value.bitPattern.littleEndian) { changed.replaceSubrange(offset..<(offset + 4), with: $0) }
        let changedGolden = try ScratchDirectory.write(Array(changed), to: "verify-weights/golden-changed.swyolo")
        let failed = try Self.swiftYOLO(["verify", "--model", model, changedGolden])
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
        #expect(failed.lines.last == "FAIL: model.5 past the bound; the golden was made from other weights (yolo11n.pt)", "\(failed.stdout)")

        // Another checkpoint's golden, refused for its shapes before the pass, is named too.
        let segmentation = try Self.swiftYOLO(["verify", "Tests/Fixtures/golden/yolo11n-seg-bus-160x128.swyolo"])
        #expect(segmentation.status == 65, "\(segmentation.stderr)")
        #expect(segmentation.stderr.hasSuffix("the model needs [1, 84, 420]; the golden was made from other weights (yolo11n-seg.pt)\n"),
                "\(segmentation.stderr)")
    }

    /// Counts outside their range are usage errors (64) that name the option: past what a run can do
    /// (`bench`'s runs, the threads of any command or of `serve`'s workers), not an overflow trap or a
    /// failed allocation; and negative, given as `--runs -1` (ArgumentParser took `-1` for an option
    /// and said the value was missing).
    @Test func countsOutsideTheirRangeAreUsageErrors() throws {
        let huge = String(Int.max)
        let serve = Self.hasServe ? [["serve", "--workers", huge], ["serve", "--threads", "1025"]] : []
        for arguments in [["bench", "--runs", huge], ["bench", "--warmup", huge], ["bench", "--threads", huge],
                          ["detect", "--threads", "1025", Self.bus], ["bench", "--runs", "-1"], ["bench", "--warmup", "-1"],
                          ["inspect", "--imgsz", "-1"]] + serve {
            let run = try Self.swiftYOLO(arguments)
            #expect(run.status == 64 && run.stderr.contains("\(arguments[1]) must lie in"), "\(arguments): \(run.status) \(run.stderr)")
        }
    }

    /// `detect --json -` answers each path of standard input as it arrives: the first line is out
    /// before the second path is written (a long-lived worker for xargs, parallel or RDD.pipe).
    @Test func pipeModeAnswersEachPathAsItArrives() throws {
        let process = Process()
        process.executableURL = Self.swiftYOLOExecutable
        process.arguments = ["detect", "--json", "--imgsz", "320", "-"]
        process.currentDirectoryURL = URL(fileURLWithPath: Fixtures.repository)
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_YOLO_MODEL"] = try Fixtures.referenceWeights()
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        input.fileHandleForWriting.write(Data("\(Self.bus)\n".utf8))
        var received = Data()
        while !received.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received += chunk
        }
        let first = try Self.jsonObject(String(decoding: received.prefix { $0 != 0x0A }, as: UTF8.self))
        #expect(first["image"] as? String == Self.bus, "the first answer came before the second path was written")
        input.fileHandleForWriting.write(Data("\n\(Self.zidane)\r\n/nonexistent.jpg".utf8))  // an empty line, CRLF, no final newline
        try input.fileHandleForWriting.close()
        received += output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(try lines.map { try Self.jsonObject($0)["image"] as? String } == [Self.bus, Self.zidane, "/nonexistent.jpg"])
        #expect(process.terminationStatus == 1, "one path failed")
    }
}
