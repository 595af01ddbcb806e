import Foundation
import Testing
import TestSupport
import YOLOFileSystem

/// `swift-yolo` never loses the user's data: no output replaces an input, every write is checked,
/// an interrupt leaves whole lines and no temporary, inputs that are not regular files are refused
/// without blocking, options are checked at the boundary and names keep their bytes. Each case was
/// seen failing on the code before these guarantees (issue "Never lose the user's data").
@Suite struct DataSafetyTests {
    /// How the wrapper sets up the process before it execs `swift-yolo`.
    struct Setup: Encodable {
        /// `pipe` (read by the test), `full` (/dev/full), `closed`, a file path (truncated first), or
        /// `>>` and a file path (appended to, as the shell's `>>` opens it).
        var stdout = "pipe"
        /// RLIMIT_FSIZE in bytes, or -1 for none.
        var fileSizeLimit = -1
        /// RLIMIT_AS (`ulimit -v`) in bytes, or -1 for none.
        var addressSpaceLimit = -1
        /// A path opened for reading as standard input, or empty for the test's own.
        var stdin = ""
        /// SIGXFSZ's disposition: the limit kills the process (`default`) or fails the write (`ignore`).
        var fileSizeSignal = "default"
        var ignoresSIGPIPE = false
        /// A user id to run as, where the test runs as root (which reads any directory); -1 for none.
        var user = -1
    }

    /// Runs the built `swift-yolo` with `arguments` given as raw bytes (so names that are not UTF-8
    /// survive), under `setup`, from the repository root; killed after `timeout` seconds (a hang is
    /// then status 128 + SIGKILL rather than a test that never ends).
    static func run(_ arguments: [[UInt8]], setup: Setup = Setup(), timeout: Double = 60) throws -> CommandLineTests.Run {
        let process = try start(arguments, setup: setup)
        let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        defer { killer.cancel() }
        return finish(process)
    }

    static func run(_ arguments: [String], setup: Setup = Setup(), timeout: Double = 60) throws -> CommandLineTests.Run {
        try run(arguments.map { PathEncoding.bytes(of: $0) }, setup: setup, timeout: timeout)
    }

    static let wrapper = """
        import json, os, resource, signal, sys
        setup = json.loads(sys.argv[1])
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN if setup["fileSizeSignal"] == "ignore" else signal.SIG_DFL)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN if setup["ignoresSIGPIPE"] else signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGXFSZ, signal.SIGPIPE, signal.SIGINT, signal.SIGTERM])
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if setup["user"] >= 0 and os.getuid() == 0:
            os.setgroups([])
            os.setgid(setup["user"])
            os.setuid(setup["user"])
        if setup["fileSizeLimit"] >= 0:
            resource.setrlimit(resource.RLIMIT_FSIZE, (setup["fileSizeLimit"], setup["fileSizeLimit"]))
        if setup["addressSpaceLimit"] >= 0:
            resource.setrlimit(resource.RLIMIT_AS, (setup["addressSpaceLimit"], setup["addressSpaceLimit"]))
        if setup["stdin"]:
            os.dup2(os.open(setup["stdin"], os.O_RDONLY), 0)
        out = setup["stdout"]
        if out == "full":
            os.dup2(os.open("/dev/full", os.O_WRONLY), 1)
        elif out == "closed":
            os.close(1)
        elif out.startswith(">>"):
            os.dup2(os.open(out[2:], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644), 1)
        elif out != "pipe":
            os.dup2(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
        arguments = [bytes.fromhex(a) for a in sys.argv[2:]]
        os.execv(arguments[0], arguments)
        """

    /// - Parameter standardInput: what the process reads as standard input (the test's own by default).
    static func start(_ arguments: [[UInt8]], setup: Setup, executable: String = CommandLineTests.swiftYOLOExecutable.path,
                      standardInput: Pipe? = nil) throws -> Process {
        let process = Process()
        if let standardInput { process.standardInput = standardInput }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let executable = Array(executable.utf8)
        let hex = ([executable] + arguments).map { $0.map { String(format: "%02x", $0) }.joined() }
        process.arguments = ["python3", "-c", wrapper, String(decoding: try JSONEncoder().encode(setup), as: UTF8.self)] + hex
        process.currentDirectoryURL = URL(fileURLWithPath: Fixtures.repository)
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_YOLO_MODEL"] = try Fixtures.referenceWeights()
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// Waits for `process`; `readsStdout: false` when the test closed its end of the pipe.
    static func finish(_ process: Process, readsStdout: Bool = true) -> CommandLineTests.Run {
        let stdout = readsStdout ? (process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data() : Data()
        let stderr = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return CommandLineTests.Run(status: status, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Waits (up to 60 s) until `process` runs `swift-yolo` with its handler for `signal` installed
    /// (`SigCgt` in /proc), so that the signal is one the command handles, however slowly it starts.
    /// `finish(process)`, killing it (SIGKILL, status 137) if it has not ended `seconds` from now.
    static func finish(_ process: Process, within seconds: Double) -> CommandLineTests.Run {
        let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: killer)
        defer { killer.cancel() }
        return finish(process)
    }

    static func waitForHandler(of signal: Int32, in process: Process) {
        let pid = process.processIdentifier, deadline = Date().addingTimeInterval(60)
        // Read with the C library: LeakSanitizer reported Foundation's file reading leaking in such loops.
        func read(_ path: String, link: Bool = false) -> String {
            var buffer = [UInt8](repeating: 0, count: 8192)
            let count: Int
            if link {
                count = buffer.withUnsafeMutableBufferPointer { readlink(path, $0.baseAddress!, $0.count) }
            } else {
                let descriptor = open(path, O_RDONLY)
                guard descriptor >= 0 else { return "" }
                defer { close(descriptor) }
                count = buffer.withUnsafeMutableBufferPointer { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            }
            return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
        }
        while Date() < deadline {
            let executable = read("/proc/\(pid)/exe", link: true)
            let status = read("/proc/\(pid)/status")
            let caught = status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
                .flatMap { UInt64($0.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) } ?? 0
            if executable.hasSuffix("swift-yolo"), caught & (1 << UInt64(signal - 1)) != 0 { return }
            usleep(10_000)
        }
    }

    static func directory(_ name: String) throws -> String {
        let path = try ScratchDirectory.fresh("safety-" + name)
        try Directory.create(path)
        return path
    }

    static func copy(_ source: String, to destination: String) throws {
        try FileManager.default.copyItem(atPath: Fixtures.path(source), toPath: destination)
    }

    static let bus = "../shared/images/bus.jpg", zidane = "../shared/images/zidane.jpg"

    // MARK: - No output replaces an input

    /// `--save DIR IMG` with IMG a `.png` inside DIR replaced the photo by its annotated copy.
    @Test func saveIntoTheInputsFolderKeepsTheInput() throws {
        let directory = try Self.directory("own-folder")
        let input = directory + "/zidane.png"
        try Self.copy("Tests/Fixtures/images/parity/rgba_zidane.png", to: input)
        let original = try Data(contentsOf: URL(fileURLWithPath: input))
        let run = try Self.run(["detect", "--json", "--save", directory, input])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original, "the input is untouched")
        let line = try CommandLineTests.jsonObject(run.lines[0])
        #expect(line["saved"] as? String == directory + "/zidane_2.png")
        #expect(run.stderr.contains("'\(input)' exists; saved as '\(directory)/zidane_2.png'"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["zidane.png", "zidane_2.png"])
    }

    // MARK: - Every write is checked

    @Test func aFullDeviceIsAnErrorNotExitZero() throws {
        let run = try Self.run(["detect", "--json", Self.bus], setup: Setup(stdout: "full"))
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr == "error: cannot write to standard output: No space left on device\n")
        // The parser's own output, help and the version, too (they exited 74 without a word).
        for arguments in [["--version"], ["detect", "--help"]] {
            let parser = try Self.run(arguments, setup: Setup(stdout: "full"))
            #expect(parser.status == 74 && parser.stderr == "error: cannot write to standard output: No space left on device\n",
                    "\(arguments): \(parser.status) \(parser.stderr)")
        }
    }

    @Test func aClosedStandardOutputIsAnError() throws {
        let run = try Self.run(["detect", "--json", Self.bus], setup: Setup(stdout: "closed"))
        #expect(run.status == 74)
        #expect(run.stderr == "error: cannot write to standard output: Bad file descriptor\n")
    }

    /// A reader that goes away (`| head`) with SIGPIPE ignored: `video` crashed on `try!`; now both
    /// commands stop quietly with the status a SIGPIPE death would give.
    @Test(arguments: ["detect", "video"])
    func aClosedPipeEndsQuietly(_ command: String) throws {
        let frames = try Self.directory("pipe-\(command)")
        for index in 0..<3 { try Self.copy(Self.bus, to: frames + "/\(index).jpg") }
        let process = try Self.start([command, "--imgsz", "64", frames].map { PathEncoding.bytes(of: $0) }, setup: Setup(ignoresSIGPIPE: true))
        let stdout = try #require(process.standardOutput as? Pipe)
        _ = stdout.fileHandleForReading.availableData  // the first line is out: close the pipe
        try stdout.fileHandleForReading.close()
        let run = Self.finish(process, readsStdout: false)
        #expect(run.status == 141, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    /// A results file under a file-size limit (as a full disk): the run stops with an error and the
    /// file holds whole lines only (it was cut at 4096 bytes in the middle of a line, exit 0).
    @Test(.enabled(if: ReliabilityTests.fileSizeLimitsWork, "file-size limits break ThreadSanitizer's runtime"))
    func aFullDiskLeavesWholeLines() throws {
        let results = try ScratchDirectory.fresh("safety-results.jsonl")
        let run = try Self.run(["detect", "--json", Self.bus, Self.zidane, Self.bus],
                               setup: Setup(stdout: results, fileSizeLimit: 1200, fileSizeSignal: "ignore"))
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr == "error: cannot write to standard output: File too large\n")
        let text = try String(contentsOfFile: results, encoding: .utf8)
        #expect(text.hasSuffix("\n") && text.split(separator: "\n").count == 1, "one whole line: \(text.count) bytes")
        _ = try CommandLineTests.jsonObject(String(text.dropLast()))
    }

    /// The same with the results appended to (`>> results.jsonl`): the lines already there stay. The
    /// cut went back to where the file's offset was before the first write, 0 when appending, and
    /// emptied the file.
    @Test(.enabled(if: ReliabilityTests.fileSizeLimitsWork, "file-size limits break ThreadSanitizer's runtime"))
    func aFullDiskKeepsTheLinesAppendedTo() throws {
        let results = try ScratchDirectory.fresh("safety-appended.jsonl")
        let earlier = String(repeating: "{\"earlier\": true}\n", count: 50)  // 900 bytes
        try Data(earlier.utf8).write(to: URL(fileURLWithPath: results))
        let run = try Self.run(["detect", "--json", Self.bus, Self.zidane, Self.bus],
                               setup: Setup(stdout: ">>" + results, fileSizeLimit: 1200, fileSizeSignal: "ignore"))
        #expect(run.status == 74, "\(run.stderr)")
        let text = try String(contentsOfFile: results, encoding: .utf8)
        #expect(text == earlier, "the 900 bytes there before, and no part of a line: \(text.utf8.count) bytes")
    }

    /// `detect --save DIR a.jpg DIR` listed DIR when it reached it, after saving `DIR/a.png`, and
    /// detected in its own output (saving `a_2.png`); a file this run saved is no input.
    @Test func savedPicturesAreNotReadBackAsInputs() throws {
        let directory = try Self.directory("read-back")
        try Self.copy(Self.bus, to: directory + "/bus.jpg")
        let run = try Self.run(["detect", "--json", "--save", directory, Self.zidane, directory])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.count == 2 && run.stdout.contains("\"image\": \"\(directory)/bus.jpg\""), "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["bus.jpg", "bus.png", "zidane.png"])
    }

    /// An input that is the file standard output goes to (here through a symbolic link, with `>>`)
    /// is refused, as `cat` refuses it, and the other inputs run: it was read as an image while the
    /// results were appended to it.
    @Test func theFileStandardOutputGoesToIsNoInput() throws {
        let directory = try Self.directory("stdout-input")
        let results = directory + "/results.jsonl"
        try Data("{\"earlier\": true}\n".utf8).write(to: URL(fileURLWithPath: results))
        try FileManager.default.createSymbolicLink(atPath: directory + "/results.jpg", withDestinationPath: results)
        let run = try Self.run(["detect", "--json", directory + "/results.jpg", Self.bus], setup: Setup(stdout: ">>" + results))
        #expect(run.status == 1, "\(run.stderr)")
        let lines = try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3 && lines[0] == "{\"earlier\": true}", "\(lines)")
        #expect(lines[1] == "{\"image\": \"\(directory)/results.jpg\", \"error\": \"cannot read '\(directory)/results.jpg': it is the file standard output is written to\"}")
        #expect(lines[2].hasPrefix("{\"image\": \"\(Self.bus)\", \"width\": 810"))
    }

    /// A picture whose name is near the 255-byte limit is saved: its temporary's name (the name, the
    /// process id and a random number) went past the limit, and every such save failed.
    @Test func longNamesAreSaved() throws {
        let inputs = try Self.directory("long-names-in"), saved = try Self.directory("long-names-out")
        let stem = String(repeating: "a", count: 240)
        try Self.copy(Self.bus, to: "\(inputs)/\(stem).jpg")
        let run = try Self.run(["detect", "--json", "--save", saved, "\(inputs)/\(stem).jpg"])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: saved) == ["\(stem).png"])
    }

    /// A directory that cannot be listed is an input that fails, with its reason and exit status 1,
    /// and the inputs after it run (it was a warning, and the run exited 0). Run as a user who may not
    /// list it: root may; the binary, model and image are copied where that user can reach them.
    @Test func anUnlistableDirectoryIsAFailedInput() throws {
        let sandbox = FileManager.default.temporaryDirectory.appendingPathComponent("swift-yolo-unlistable-\(getpid())").path
        try? FileManager.default.removeItem(atPath: sandbox)
        try FileManager.default.createDirectory(atPath: sandbox + "/locked", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox + "/locked")
            try? FileManager.default.removeItem(atPath: sandbox)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox)
        try FileManager.default.copyItem(atPath: CommandLineTests.swiftYOLOExecutable.path, toPath: sandbox + "/swift-yolo")
        try FileManager.default.copyItem(atPath: try Fixtures.referenceWeights(), toPath: sandbox + "/model.swyolo")
        try FileManager.default.copyItem(atPath: Fixtures.path(Self.bus), toPath: sandbox + "/bus.jpg")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: sandbox + "/locked")
        let process = try Self.start(["detect", "--json", "--model", sandbox + "/model.swyolo", sandbox + "/locked", sandbox + "/bus.jpg"]
                                        .map { PathEncoding.bytes(of: $0) }, setup: Setup(user: 65534), executable: sandbox + "/swift-yolo")
        let run = Self.finish(process)
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(run.lines.first == "{\"image\": \"\(sandbox)/locked\", \"error\": \"cannot read '\(sandbox)/locked': Permission denied\"}", "\(run.stdout)")
        #expect(run.lines.count == 2 && run.lines[1].contains("\"label\": \"bus\""), "\(run.stdout)")
    }

    /// Under `ulimit -f`, SIGXFSZ killed `--save` with no message and left its temporary; now the
    /// write fails with a message, the other images still run, and nothing partial is left. The
    /// status is 74, writing failed, as `video --save`'s (it was 1, as for an unreadable input).
    @Test(.enabled(if: ReliabilityTests.fileSizeLimitsWork, "file-size limits break ThreadSanitizer's runtime"))
    func aFileSizeLimitIsReportedNotFatal() throws {
        let directory = try Self.directory("ulimit")
        let run = try Self.run(["detect", "--json", "--save", directory, Self.bus, Self.zidane],
                               setup: Setup(fileSizeLimit: 16_384, fileSizeSignal: "default"))
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.lines.count == 2)
        #expect(run.stdout.contains("\"error\": \"cannot write '\(directory)/bus.png': writing failed: File too large\""), "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }

    /// `background` as `detect --save`: each picture that cannot be written is an error line, the
    /// others still run, nothing partial is left, and the status is 74.
    @Test(.enabled(if: ReliabilityTests.fileSizeLimitsWork, "file-size limits break ThreadSanitizer's runtime"))
    func aBackgroundThatCannotBeWrittenSaysSo() throws {
        let directory = try Self.directory("background-ulimit")
        let run = try Self.run(["background", "--json", "--model", Fixtures.path("Weights/yolo11n-seg.swyolo"), "--replace", "white",
                                "--save", directory, Self.bus, Self.zidane],
                               setup: Setup(fileSizeLimit: 16_384, fileSizeSignal: "default"))
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.lines.count == 2 && run.lines.allSatisfy { $0.contains("writing failed: File too large") }, "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }

    /// `video --save` whose frame cannot be written ends the stream with its error event and the end
    /// line, as any stream that cannot go on, and exit 74 (it stopped with neither on standard output).
    /// The frame itself gets its error line and counts as failed (it counted as processed, with no line).
    @Test(.enabled(if: ReliabilityTests.fileSizeLimitsWork, "file-size limits break ThreadSanitizer's runtime"))
    func aVideoFrameThatCannotBeSavedEndsTheStreamWithItsEvents() throws {
        let frames = try Self.directory("video-save-frames"), saved = try Self.directory("video-save-out")
        for index in 0..<3 { try Self.copy(Self.bus, to: frames + "/\(index).jpg") }
        let run = try Self.run(["video", "--imgsz", "64", "--save", saved, frames],
                               setup: Setup(fileSizeLimit: 16_384, fileSizeSignal: "default"))
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.lines.count == 3, "\(run.stdout)")
        #expect(run.lines.first?.hasPrefix("{\"frame\": 0, \"time_s\": 0, \"image\": \"\(frames)/0.jpg\", \"error\": ") == true
                && run.lines.first?.contains("File too large") == true, "\(run.stdout)")
        #expect(run.lines[1].hasPrefix("{\"event\": \"error\"") && run.lines[1].contains("File too large"), "\(run.stdout)")
        #expect(run.lines.last?.hasPrefix("{\"event\": \"end\"") == true && run.lines.last?.contains("\"failed\": 1") == true, "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: saved) == [])
    }

    /// `video --save` keeps a picture already there and writes the frame beside it, as `detect --save`
    /// does; each frame's line says where its picture went (only a warning on stderr said so).
    @Test func videoFramesSaySavedWhere() throws {
        let frames = try Self.directory("video-saved-frames"), saved = try Self.directory("video-saved-out")
        for index in 0..<2 { try Self.copy(Self.bus, to: frames + "/\(index).jpg") }
        try Data("kept".utf8).write(to: URL(fileURLWithPath: saved + "/frame_000000.png"))
        let run = try Self.run(["video", "--imgsz", "64", "--save", saved, frames], timeout: 20)
        #expect(run.status == 0 && run.lines.count == 3, "\(run.status) \(run.stdout) \(run.stderr)")
        #expect(run.lines.first?.hasSuffix(", \"saved\": \"\(saved)/frame_000000_2.png\"}") == true, "\(run.lines)")
        #expect(run.lines.dropFirst().first?.hasSuffix(", \"saved\": \"\(saved)/frame_000001.png\"}") == true, "\(run.lines)")
        #expect(try String(contentsOfFile: saved + "/frame_000000.png", encoding: .utf8) == "kept")
    }

    // MARK: - Interrupts

    /// SIGINT or SIGTERM in the middle of `detect --json DIR > results.jsonl`: the file ended at a
    /// 4 KiB boundary inside a line; now every line that was started is whole, the `--save`
    /// temporaries are gone, and the status is 130 or 143.
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptLeavesWholeLinesAndNoTemporary(_ signal: Int32) throws {
        let images = try Self.directory("interrupt-images-\(signal)"), saved = try Self.directory("interrupt-saved-\(signal)")
        for index in 0..<40 { try Self.copy(Self.bus, to: images + String(format: "/%02d.jpg", index)) }
        let results = try ScratchDirectory.fresh("safety-interrupt-\(signal).jsonl")
        let process = try Self.start(["detect", "--json", "--imgsz", "320", "--save", saved, images].map { PathEncoding.bytes(of: $0) },
                                     setup: Setup(stdout: results))
        let deadline = Date().addingTimeInterval(60)
        // Lines written so far, read with the engine's own reader: LeakSanitizer reported Foundation's
        // String(contentsOfFile:) leaking a 4 KiB buffer per call in this loop, over a file being written.
        func linesWritten() -> Int { (try? RegularFile.read(results, maxBytes: 1 << 24))?.count { $0 == 0x0A } ?? 0 }
        while linesWritten() < 2, Date() < deadline { usleep(20_000) }
        kill(process.processIdentifier, signal)
        let run = Self.finish(process)
        #expect(run.status == 128 + signal, "\(run.stderr)")
        let text = try String(contentsOfFile: results, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(text.hasSuffix("\n") && lines.count >= 2 && lines.count < 40, "\(lines.count) lines")
        for line in lines { _ = try CommandLineTests.jsonObject(String(line)) }
        let left = try FileManager.default.contentsOfDirectory(atPath: saved)
        #expect(left.allSatisfy { $0.hasSuffix(".png") && !$0.hasPrefix(".") }, "\(left)")
        #expect(left.count == lines.count, "one picture per line written")
        #expect(run.stderr.contains("interrupted by signal \(signal) after \(lines.count) of 40 image(s)"), "\(run.stderr)")
    }

    /// `video --realtime` waiting for a frame's time slept through SIGINT and SIGTERM (at 0.05 fps
    /// for 20 s, with `--every 2^63` for ever), and at 1e-300 fps, which `--fps` accepts, or a
    /// header's `F1:9223372036854775807`, it trapped converting the wait to whole seconds.
    @Test(arguments: [SIGINT, SIGTERM])
    func aRealtimeWaitEndsAtAnInterrupt(_ signal: Int32) throws {
        let fixture = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Tests/YOLOVideoTests/Fixtures/zidane-70x48-yuv420p.y4m"))))
        let header = fixture.prefix { $0 != 0x0A }.count + 1
        let stream = try Fixtures.temporaryFile("slow-\(signal).y4m", bytes: Array(fixture.prefix(header)) + Array(fixture[header...]) + Array(fixture[header...]))
        let started = Date()
        let process = try Self.start(["video", "--imgsz", "64", "--realtime", "--fps", "1e-300", stream].map { PathEncoding.bytes(of: $0) }, setup: Setup())
        Self.waitForHandler(of: signal, in: process)
        usleep(1_000_000)  // the first frame, then the wait for the second (either way the run must end)
        kill(process.processIdentifier, signal)
        let run = Self.finish(process, within: 30)
        #expect(run.status == 128 + signal, "\(run.stderr)")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(run.lines.last?.hasPrefix("{\"event\": \"end\"") == true && run.lines.count <= 2, "\(run.stdout)")
        // The frame held for its time was read and never processed: counted as dropped, so that the
        // counts add up (it was counted as read only: frames 2, processed 1, dropped 0).
        let end = try #require(try JSONSerialization.jsonObject(with: Data((run.lines.last ?? "").utf8)) as? [String: Any])
        let counts = ["frames", "processed", "skipped", "dropped"].map { end[$0] as? Int ?? -1 }
        #expect(counts[0] == counts[1] + counts[2] + counts[3] && counts[0] > counts[1], "\(end)")
    }

    /// `bench` ran every pass it was asked for through SIGINT and SIGTERM (a second signal ended it);
    /// now the first ends it after the pass it is in, with a line on stderr and 130 or 143.
    @Test(arguments: [SIGINT, SIGTERM])
    func benchEndsAtAnInterrupt(_ signal: Int32) throws {
        let started = Date()
        let process = try Self.start(["bench", "--imgsz", "64", "--runs", "1000000", "--threads", "1"].map { PathEncoding.bytes(of: $0) }, setup: Setup())
        Self.waitForHandler(of: signal, in: process)
        usleep(500_000)
        kill(process.processIdentifier, signal)
        let run = Self.finish(process, within: 30)
        #expect(run.status == 128 + signal, "\(run.stderr)")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(run.stdout.isEmpty && run.stderr.contains("interrupted by signal \(signal) after"), "\(run.stderr)")
    }

    /// A signal during a forward pass went unheeded until the pass ended (78 s for a 8192-pixel
    /// square at one thread), and then the image's line was written and the run exited 0. Now the
    /// pass stops at its next layer: no line, 130 or 143. (A 4096-pixel pass at one thread takes
    /// seconds; were the signal to come before it, the outcome would be the same.)
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptStopsTheForwardPass(_ signal: Int32) throws {
        let process = try Self.start(["detect", "--json", "--imgsz", "4096", "--square", "--threads", "1", Self.bus].map { PathEncoding.bytes(of: $0) },
                                     setup: Setup())
        Self.waitForHandler(of: signal, in: process)
        usleep(1_000_000)
        kill(process.processIdentifier, signal)
        let run = Self.finish(process, within: 30)
        #expect(run.status == 128 + signal, "\(run.stderr)")
        #expect(run.stdout.isEmpty && run.stderr.contains("interrupted by signal \(signal) after 0 of 1 image(s)"), "\(run.stderr)")
    }

    /// `background -` and `detect -` take paths from standard input, which stays open here. An
    /// interrupt while `background` waited for the next path ended it with status 0, and one that
    /// came during an image left either command waiting for the next path until the input closed.
    /// Both now end at once with 130 or 143: after a result (waiting for the next path) and during
    /// the first image (a 1280-pixel pass). `background` said nothing of it on stderr; both now say
    /// how far they got, as `detect` did.
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptEndsAListReadFromStandardInput(_ signal: Int32) throws {
        for command in ["background", "detect"] {
            for duringTheImage in [false, true] {
                let name = "stdin-\(command)-\(signal)-\(duringTheImage)"
                let results = try ScratchDirectory.fresh(name + ".out"), saved = try Self.directory(name)
                let arguments = command == "background" ? ["background", "--model", try Fixtures.require(Fixtures.path("Weights/yolo11n-seg.swyolo")),
                                                           "--imgsz", "1280", "--save", saved, "-"]
                    : ["detect", "--json", "--imgsz", "1280", "-"]
                let input = Pipe()
                let process = try Self.start(arguments.map { PathEncoding.bytes(of: $0) }, setup: Setup(stdout: results), standardInput: input)
                defer { try? input.fileHandleForWriting.close() }
                Self.waitForHandler(of: signal, in: process)
                try input.fileHandleForWriting.write(contentsOf: Data((Self.zidane + "\n").utf8))
                if duringTheImage {
                    usleep(150_000)
                } else {
                    let deadline = Date().addingTimeInterval(60)
                    while ((try? RegularFile.read(results, maxBytes: 1 << 20))?.count { $0 == 0x0A } ?? 0) < 1, Date() < deadline { usleep(20_000) }
                }
                kill(process.processIdentifier, signal)
                let run = Self.finish(process, within: 30)
                #expect(run.status == 128 + signal, "\(command), \(duringTheImage ? "during the image" : "waiting"): \(run.stderr)")
                // Both commands say how far they got (the list's length is not known).
                let said = "interrupted by signal \(signal) after \(duringTheImage ? "" : "1 image(s)")"
                #expect(run.stderr.contains(said), "\(command), \(duringTheImage ? "during the image" : "waiting"): \(run.stderr)")
            }
        }
    }

    /// An interrupt while `video` waited for a stream's header ended as a stream error, exit 1; it
    /// is an interrupt, as mid-stream: the end line, then 130 or 143.
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptBeforeTheHeaderIsAnInterrupt(_ signal: Int32) throws {
        let directory = try Self.directory("header-wait-\(signal)")
        #expect(mkfifo(directory + "/stream.y4m", 0o600) == 0)
        let writer = open(directory + "/stream.y4m", O_RDWR)  // a writer that never writes: the read waits
        defer { close(writer) }
        let process = try Self.start(["video", "--imgsz", "64", directory + "/stream.y4m"].map { PathEncoding.bytes(of: $0) }, setup: Setup())
        Self.waitForHandler(of: signal, in: process)
        usleep(300_000)
        kill(process.processIdentifier, signal)
        let run = Self.finish(process, within: 30)
        #expect(run.status == 128 + signal, "\(run.stdout) \(run.stderr)")
        #expect(run.lines.count == 1 && run.lines[0].hasPrefix("{\"event\": \"end\"") && run.lines[0].contains("\"processed\": 0"), "\(run.stdout)")
    }

    /// A list of paths on standard input that a read error cuts short (the input here is a
    /// directory: EISDIR) ended as if the list had ended, with status 0 and no word of it. It is a
    /// failed input named `-`, with the reason.
    @Test func aReadErrorOnStandardInputIsAFailedInput() throws {
        var setup = Setup()
        setup.stdin = "/"
        let json = try Self.run(["detect", "--json", "-"], setup: setup)
        #expect(json.status == 1, "\(json.stderr)")
        #expect(json.lines == ["{\"image\": \"-\", \"error\": \"cannot read '-': Is a directory\"}"], "\(json.stdout)")
        let table = try Self.run(["detect", "-"], setup: setup)
        #expect(table.status == 1 && table.stderr.contains("error: cannot read '-': Is a directory"), "\(table.stderr)")
    }

    // MARK: - Inputs that are not regular files

    /// A FIFO named as an image, found in a folder, or given as the model blocked forever in open().
    @Test func fifosAreRefusedWithoutBlocking() throws {
        let directory = try Self.directory("fifo")
        try Self.copy(Self.bus, to: directory + "/bus.jpg")
        #expect(mkfifo(directory + "/pipe.jpg", 0o600) == 0)
        let named = try Self.run(["detect", "--json", "--imgsz", "64", directory + "/pipe.jpg", directory + "/bus.jpg"], timeout: 20)
        #expect(named.status == 1 && named.lines.count == 2, "\(named.status) \(named.stderr)")
        #expect(named.lines[0].contains("it is a FIFO (named pipe), not a regular file"), "\(named.lines)")

        let scanned = try Self.run(["detect", "--json", "--imgsz", "64", directory], timeout: 20)
        #expect(scanned.status == 0 && scanned.lines.count == 1, "\(scanned.status) \(scanned.stderr)")
        #expect(scanned.stderr.contains("warning: skipping '\(directory)/pipe.jpg': it is a FIFO (named pipe), not a regular file"))

        let model = try Self.run(["detect", "--model", directory + "/pipe.jpg", Self.bus], timeout: 20)
        #expect(model.status == 65, "\(model.stderr)")
        #expect(model.stderr.contains("it is a FIFO (named pipe), not a regular file"), "\(model.stderr)")
    }

    /// A symbolic link to nothing, named as an image in a folder, was passed over with a warning and
    /// the run exited 0, so a script never learned that an image was not read. It is an input that
    /// fails, with the reason, as when it is named on the command line; the folder's other images run.
    @Test func aLinkToNothingInAFolderIsAFailedInput() throws {
        let directory = try Self.directory("dangling")
        try Self.copy(Self.bus, to: directory + "/bus.jpg")
        #expect(symlink(directory + "/gone.jpg", directory + "/a-link.jpg") == 0)
        let run = try Self.run(["detect", "--json", "--imgsz", "64", directory], timeout: 20)
        #expect(run.status == 1 && run.lines.count == 2, "\(run.status) \(run.stderr)")
        #expect(run.lines.first == "{\"image\": \"\(directory)/a-link.jpg\", \"error\": \"cannot read '\(directory)/a-link.jpg': No such file or directory\"}",
                "\(run.lines)")
        #expect(run.lines.last?.hasPrefix("{\"image\": \"\(directory)/bus.jpg\", \"width\": 810") == true, "\(run.lines)")
        #expect(!run.stderr.contains("warning"), "\(run.stderr)")
    }

    /// A folder with no image (here only a directory named like one, and a Mac's hidden resource
    /// fork `._bus.jpg`, which is no picture and which Ultralytics' glob passes over too) exited 0
    /// with a warning, so a script handed an empty or wrong folder saw success; it is now an input
    /// that fails, and the other inputs still run.
    @Test func aFolderWithNoImageIsAFailedInput() throws {
        let directory = try Self.directory("no-images")
        try FileManager.default.createDirectory(atPath: directory + "/frames.jpg", withIntermediateDirectories: true)
        try Data([0, 5, 22, 7, 0, 2, 0, 0] + Array("Mac OS X".utf8)).write(to: URL(fileURLWithPath: directory + "/._bus.jpg"))
        let run = try Self.run(["detect", "--json", "--imgsz", "64", directory, Self.bus], timeout: 20)
        #expect(run.status == 1 && run.lines.count == 2, "\(run.status) \(run.stderr)")
        #expect(run.lines.first == "{\"image\": \"\(directory)\", \"error\": \"cannot read '\(directory)': it holds no .png, .jpg or .jpeg file\"}",
                "\(run.lines)")
        #expect(run.lines.last?.hasPrefix("{\"image\": \"\(Self.bus)\", \"width\": 810") == true, "\(run.lines)")
        #expect(run.stderr.contains("warning: skipping '\(directory)/frames.jpg'"), "\(run.stderr)")
    }

    // MARK: - The memory plan

    /// `--imgsz 8192 --square` grew to 24 GB before the out-of-memory killer ended it after 55 s.
    @Test func anInputSizeOverTheMemoryLimitIsRefusedAtOnce() throws {
        let clock = ContinuousClock(), start = clock.now
        let run = try Self.run(["detect", "--imgsz", "8192", "--square", "--max-memory", "4G", Self.bus], timeout: 30)
        #expect(run.status == 64)
        #expect(run.stderr.contains("--imgsz 8192 (a 8192×8192 input) needs about"), "\(run.stderr)")
        #expect(run.stderr.contains("over the --max-memory limit of 4.0 GB"), "\(run.stderr)")
        #expect(clock.now - start < .seconds(10))
        let fits = try Self.run(["detect", "--json", "--max-memory", "200M", Self.bus])
        #expect(fits.status == 0, "640 fits in 200 MB: \(fits.stderr)")
    }

    /// `serve` plans for every worker's pass at once, before it listens: four 640 × 640 passes do not
    /// fit in 100 MB where one does.
    @Test(.enabled(if: CommandLineTests.hasServe, "a build without the HTTP server (SWIFTYOLO_SERVER=0)"))
    func serveCountsEveryWorkersPass() throws {
        let run = try Self.run(["serve", "--port", "0", "--workers", "4", "--max-memory", "100M"], timeout: 30)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--imgsz 640 (a 640×640 input, 4 passes at once) needs about"), "\(run.stderr)")
        #expect(run.stderr.contains("over the --max-memory limit of 100.0 MB"), "\(run.stderr)")
    }

    /// A port another process holds, or a host that is not an address: `serve` exited 1 ("some inputs
    /// failed") with SwiftNIO's `bind(descriptor:ptr:bytes:)` in the message; now 64 and the reason.
    @Test(.enabled(if: CommandLineTests.hasServe, "a build without the HTTP server (SWIFTYOLO_SERVER=0)"))
    func serveSaysWhyItCannotListen() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")),
                                  sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && listen(socket, 1) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        #expect(bound)
        let port = String(UInt16(bigEndian: address.sin_port))
        for (host, reason) in [("127.0.0.1", "Address already in use"), ("999.1.1.1", "'999.1.1.1' is not a known host")] {
            let run = try Self.run(["serve", "--host", host, "--port", port, "--workers", "1"], timeout: 30)
            #expect(run.status == 64 && run.stderr.contains("serve cannot listen on \(host):\(port): \(reason)"), "\(run.status) \(run.stderr)")
        }
    }

    /// Under an address-space limit (`ulimit -v`) an input whose activations cannot be reserved is
    /// refused before its pass, exit 64 (it was glibc's allocator failing part-way and the process
    /// aborting, status 134); one that fits runs. (The sanitizers' runtimes reserve terabytes of
    /// shadow memory, so this runs without them.)
    @Test(.enabled(if: !ReliabilityTests.underSanitizer, "the sanitizers' shadow memory needs an unlimited address space"))
    func anAddressSpaceLimitRefusesWhatCannotBeReserved() throws {
        let limit = Setup(addressSpaceLimit: 600 << 20)
        let refused = try Self.run(["detect", "--json", "--imgsz", "4096", Self.bus], setup: limit)
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("--imgsz 4096 (a 4096×4096 input) needs about 1.5 GB for activations, which this process could "
                                        + "not reserve under its address-space limit (ulimit -v) of 600.0 MB"), "\(refused.stderr)")
        let fits = try Self.run(["detect", "--json", Self.bus, Self.zidane], setup: limit)
        #expect(fits.status == 0, "\(fits.stderr)")
        #expect(fits.lines.count == 2 && fits.lines.allSatisfy { $0.contains("\"label\": \"person\"") }, "\(fits.stdout)")
    }

    /// `--threads` past what `ulimit -v` leaves room for: the workers' stacks (1 MiB each) took the
    /// address space before the model was loaded, and the load's allocations then stopped the process
    /// (`--threads 64` under 120000 KiB: `Fatal error: failed to allocate 3276832 bytes`, status 134).
    /// The threads now start after the load: those refused are a warning with the system's reason,
    /// and an input that then does not fit beside their stacks is refused, naming `--threads` (here
    /// 1024 stacks are more than the 600 MB limit, so some are always refused).
    @Test(.enabled(if: !ReliabilityTests.underSanitizer, "the sanitizers' shadow memory needs an unlimited address space"))
    func threadsPastTheAddressSpaceAreAWarning() throws {
        let run = try Self.run(["detect", "--json", "--threads", "1024", Self.bus], setup: Setup(addressSpaceLimit: 600 << 20))
        #expect(run.stderr.contains("warning: --threads 1024: could not start thread 'kernels ") && run.stderr.contains("; running with "),
                "\(run.stderr)")
        if run.status == 0 {
            #expect(run.lines.count == 1 && run.lines[0].contains("\"label\": \"bus\""), "\(run.stdout)")
        } else {
            #expect(run.status == 64 && run.stderr.contains("; use a smaller --imgsz, fewer --threads or raise ulimit -v"), "\(run.status): \(run.stderr)")
        }
    }

    // MARK: - Options at the boundary

    @Test func optionsAreCheckedWithTheirStatus() throws {
        let cases: [([String], Int32, String)] = [
            (["detect", "--conf", "-1", Self.bus], 64, "--conf must lie in [0, 1], got -1.0"),
            (["detect", "--iou", "-0.5", Self.bus], 64, "--iou must lie in [0, 1], got -0.5"),
            (["detect", "--classes", "unicorn", Self.bus], 64, "--classes: unknown class 'unicorn'"),
            (["detect", "--imgsz", "20000", Self.bus], 64, "--imgsz must lie in 32…16384, got 20000"),
            (["bench", "--imgsz", "20000"], 64, "--imgsz must lie in 32…16384, got 20000"),
            (["inspect", "--imgsz", "20000"], 64, "--imgsz must lie in 32…16384, got 20000"),
            (["video", "--realtime", "--fps", "1e300", "-"], 64, "--fps must be a number above 0 and at most 1000, got 1e+300"),
            (["video", "--fps", "nan", "-"], 64, "--fps must be a number above 0 and at most 1000, got nan"),
            (["detect", "-dash.jpg"], 64, "a file whose name starts with '-' goes after '--' (swift-yolo detect -- -dash.jpg)"),
            (["detect", "--model", "/nonexistent/m.swyolo", Self.bus], 65, "/nonexistent/m.swyolo"),
            (["detect", "--save", "/proc/version/sub", Self.bus], 74, "cannot create the --save directory: cannot write '/proc/version': it exists and is not a directory"),
        ]
        for (arguments, status, message) in cases {
            let run = try Self.run(arguments, timeout: 30)
            #expect(run.status == status, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("NSCocoaErrorDomain") && !run.stderr.contains("Fatal error"), "\(arguments): \(run.stderr)")
        }
    }

    /// A name that starts with '-' printed help and exited 0; after `--` it is an image like any other.
    @Test func dashedNamesRunAfterTheSeparator() throws {
        let directory = try Self.directory("dash")
        try Self.copy(Self.bus, to: directory + "/-dash.jpg")
        let process = Process()
        process.executableURL = CommandLineTests.swiftYOLOExecutable
        process.arguments = ["detect", "--json", "--imgsz", "64", "--", "-dash.jpg"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_YOLO_MODEL"] = try Fixtures.referenceWeights()
        process.environment = environment
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        let run = Self.finish(process)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try CommandLineTests.jsonObject(run.lines[0])["image"] as? String == "-dash.jpg")
    }

    /// `--fps` was ignored for Y4M streams although `--help` says it overrides the stream's rate.
    @Test func fpsOverridesTheStreamsRate() throws {
        // The one-frame fixture made a three-frame stream: its header, then its frame three times.
        let fixture = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Tests/YOLOVideoTests/Fixtures/zidane-70x48-yuv420p.y4m"))))
        let header = String(decoding: fixture.prefix { $0 != 0x0A }, as: UTF8.self)
        #expect(header.contains(" F25:1 "), "the fixture says 25 fps: \(header)")
        let frame = fixture[(header.utf8.count + 1)...]
        let stream = try Fixtures.temporaryFile("three-frames.y4m", bytes: Array(fixture.prefix(header.utf8.count + 1)) + frame + frame + frame)
        let ownRate = try Self.run(["video", "--imgsz", "64", stream])
        let overridden = try Self.run(["video", "--imgsz", "64", "--fps", "10", stream])
        #expect(ownRate.status == 0 && overridden.status == 0, "\(ownRate.stderr) \(overridden.stderr)")
        let times = { (run: CommandLineTests.Run) in try run.lines.map { try CommandLineTests.jsonObject($0) }.compactMap { $0["time_s"] as? Double } }
        #expect(try times(ownRate).prefix(2) == [0, 0.04])
        #expect(try times(overridden).prefix(2) == [0, 0.1])
    }

    /// A stream whose header is bad went to stderr only; now it is a JSON error event and the end line.
    @Test func aBadStreamHeaderIsAnEventWithTheEndLine() throws {
        let run = try Self.run(["video", Fixtures.path(Self.bus)])
        #expect(run.status == 1)
        #expect(run.lines.count == 2, "\(run.stdout)")
        let error = try CommandLineTests.jsonObject(run.lines[0]), end = try CommandLineTests.jsonObject(run.lines[1])
        #expect(error["event"] as? String == "error" && (error["error"] as? String)?.contains("is not a YUV4MPEG2 stream") == true)
        #expect(end["event"] as? String == "end" && end["frames"] as? Int == 0)
    }

    // MARK: - Names

    /// A name that is not UTF-8 was reported as "No such file or directory" and skipped; now it is
    /// read, reported with its bytes (JSON: `\udcXX`, Python's surrogateescape) and saved under them.
    @Test func namesThatAreNotUTF8RoundTrip() throws {
        let directory = try Self.directory("latin1")
        let name: [UInt8] = [0x66, 0xE9, 0x65]  // "fée" in Latin-1
        let path = Array(directory.utf8) + [0x2F] + name + Array(".jpg".utf8)
        let input = PathEncoding.string(fromFileSystem: path)
        try FileManager.default.copyItem(atPath: Fixtures.path(Self.bus), toPath: directory + "/copy.jpg")
        #expect(PathEncoding.withCString(directory + "/copy.jpg") { from in PathEncoding.withCString(input) { rename(from, $0) } } == 0)
        let run = try Self.run([Array("detect".utf8), Array("--json".utf8), Array("--imgsz".utf8), Array("64".utf8),
                                Array("--save".utf8), Array(directory.utf8), path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("{\"image\": \"\(directory)/f\\udce9e.jpg\""), "\(run.stdout)")
        #expect(run.stdout.contains("\"saved\": \"\(directory)/f\\udce9e.png\""), "\(run.stdout)")
        let saved = try Directory.entries(of: directory).map { PathEncoding.bytes(of: $0.name) }
        #expect(saved.contains(name + Array(".png".utf8)))
        for entry in try Directory.entries(of: directory) { _ = PathEncoding.withCString(directory + "/" + entry.name) { unlink($0) } }
    }

    /// Terminal escape bytes in a file name reached the terminal raw.
    @Test func controlBytesInNamesAreEscaped() throws {
        let directory = try Self.directory("escape")
        let input = directory + "/\u{1B}[2J\u{1B}[31mred.jpg"
        try Self.copy(Self.bus, to: input)
        let run = try Self.run(["detect", "--imgsz", "64", input, directory + "/\u{1B}]0;missing.jpg"])
        #expect(run.status == 1)
        #expect(!run.stdout.contains("\u{1B}") && !run.stderr.contains("\u{1B}"))
        #expect(run.stdout.contains("\(directory)/\\x1b[2J\\x1b[31mred.jpg  810×1080"), "\(run.stdout)")
        #expect(run.stderr.contains("\\x1b]0;missing.jpg"), "\(run.stderr)")
    }
}
