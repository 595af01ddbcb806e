import Foundation
import Testing
import SwiftYOLOVideo
import TestSupport

/// `swift-yolo video` and the new `detect` options end to end, with the real model (kept to small
/// inputs, and `--imgsz 160` where the numbers do not matter, so the suite stays quick in debug).
@Suite struct VideoCommandLineTests {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
        var objects: [[String: Any]] { lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } }
    }

    /// Runs the built `swift-yolo` from the repository root, with `input` on its standard input.
    static func swiftYOLO(_ arguments: [String], input: [UInt8]? = nil) throws -> Run {
        let weights = Scenes.repository + "/Weights/yolo11n.swyolo"
        guard FileManager.default.fileExists(atPath: weights) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: weights + " (run `make weights`)"])
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("swift-yolo")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Scenes.repository)
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_YOLO_MODEL"] = weights
        process.environment = environment
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            // Feed standard input from another thread while this one drains the output.
            let writer = stdin.fileHandleForWriting
            Thread.detachNewThread {
                writer.write(Data(input))
                try? writer.close()
            }
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// zidane.jpg at 160×90, and its mirror image.
    static func zidaneFrames() throws -> (upright: RGBImage, mirrored: RGBImage) {
        let full = try ImageDecoder().decode(contentsOf: Scenes.zidanePath)
        var upright = [UInt8](), mirrored = [UInt8]()
        for y in 0..<90 {
            for x in 0..<160 {
                let i = ((y * 8) * full.width + x * 8) * 3, m = ((y * 8) * full.width + (159 - x) * 8) * 3
                upright += full.pixels[i..<(i + 3)]
                mirrored += full.pixels[m..<(m + 3)]
            }
        }
        return (RGBImage(width: 160, height: 90, pixels: upright), RGBImage(width: 160, height: 90, pixels: mirrored))
    }

    @Test func videoFromStandardInputSettlesAfterTheCut() throws {
        // Two frames of the mirrored scene, a cut, four of the upright one.
        let (upright, mirrored) = try Self.zidaneFrames()
        var writer = Y4MWriter(width: 160, height: 90, frameRateNumerator: 25, frameRateDenominator: 1)
        for frame in [mirrored, mirrored, upright, upright, upright, upright] { writer.append(frame) }
        let run = try Self.swiftYOLO(["video", "--imgsz", "160", "--settle", "2", "-"], input: writer.bytes)
        #expect(run.status == 0, "\(run.stderr)")
        let objects = run.objects
        #expect(objects.count == run.lines.count, "every line is a JSON object: \(run.stdout)")
        let frames = objects.filter { $0["frame"] != nil && $0["event"] == nil }
        #expect(frames.map { $0["frame"] as? Int } == [0, 1, 2, 3, 4, 5])
        #expect(frames.map { $0["time_s"] as? Double } == [0, 0.04, 0.08, 0.12, 0.16, 0.2])
        #expect(Set(frames[0].keys) == ["frame", "time_s", "detections", "timing_ms"])
        let people = try #require(frames[2]["detections"] as? [[String: Any]])
        #expect(people.count >= 2 && people.allSatisfy { $0["label"] as? String == "person" })
        let settled = objects.filter { $0["event"] as? String == "settled" }
        #expect(settled.map { $0["frame"] as? Int } == [1, 3], "settled on the 2nd frame of each scene, once")
        let lastSettled = try #require(settled.last?["detections"] as? [[String: Any]])
        let x1s = lastSettled.compactMap { ($0["box"] as? [Double])?.first }
        #expect(lastSettled.count == people.count && x1s == x1s.sorted(), "left to right: \(x1s)")
        let end = try #require(objects.last)
        #expect(end["event"] as? String == "end" && end["source"] as? String == "stdin")
        #expect(end["frames"] as? Int == 6 && end["processed"] as? Int == 6 && end["dropped"] as? Int == 0 && end["failed"] as? Int == 0)
    }

    @Test func everyNthFrameWithTracksAsFlatArrays() throws {
        let (upright, mirrored) = try Self.zidaneFrames()
        var writer = Y4MWriter(width: 160, height: 90)
        for frame in [upright, mirrored, mirrored, upright, mirrored, mirrored] { writer.append(frame) }
        let path = try Scenes.temporaryFile("zidane-every.y4m", bytes: writer.bytes)
        let tracked = try Self.swiftYOLO(["video", "--imgsz", "160", "--every", "3", "--smooth", "--min-hits", "1", path])
        #expect(tracked.status == 0, "\(tracked.stderr)")
        let frames = tracked.objects.filter { $0["event"] == nil }
        #expect(frames.map { $0["frame"] as? Int } == [0, 3])
        let first = try #require(frames.first?["detections"] as? [[String: Any]])
        let second = try #require(frames.last?["detections"] as? [[String: Any]])
        #expect(Set(first.compactMap { $0["track"] as? Int }) == Set(1...first.count), "ids from 1: \(first)")
        #expect(first.map { $0["track"] as? Int } == second.map { $0["track"] as? Int }, "the same objects keep their tracks")
        #expect(tracked.objects.last?["skipped"] as? Int == 4 && tracked.objects.last?["processed"] as? Int == 2)

        let flat = try Self.swiftYOLO(["video", "--imgsz", "160", "--every", "3", "--format", "array", path])
        let arrays = flat.objects.filter { $0["event"] == nil }
        #expect(arrays.count == 2 && arrays.allSatisfy { Set($0.keys) == ["frame", "time_s", "array", "timing_ms"] })
        let array = try #require(arrays.first?["array"] as? [Double])
        #expect(array.count == 6 * first.count)
        for (n, d) in first.enumerated() {
            let box = try #require(d["box"] as? [Double])
            let row = Array(array[(6 * n)..<(6 * n + 6)])
            #expect(row == [Double(d["class"] as? Int ?? -1), d["confidence"] as? Double ?? -1, box[0], box[2], box[1], box[3]], "row \(n): \(row)")
        }
    }

    @Test func detectPrintsFlatArraysPerImage() throws {
        let json = try Self.swiftYOLO(["detect", "--json", "--imgsz", "160", Scenes.busPath])
        let array = try Self.swiftYOLO(["detect", "--format", "array", "--imgsz", "160", Scenes.busPath, "/nonexistent.png"])
        #expect(array.status == 1 && array.lines.count == 2)
        let detections = try #require(json.objects.first?["detections"] as? [[String: Any]])
        let values = try #require(try JSONSerialization.jsonObject(with: Data(array.lines[0].utf8)) as? [Double])
        #expect(values.count == 6 * detections.count && !detections.isEmpty)
        for (n, d) in detections.enumerated() {
            let box = try #require(d["box"] as? [Double])
            #expect(Array(values[(6 * n)..<(6 * n + 6)]) == [Double(d["class"] as? Int ?? -1), d["confidence"] as? Double ?? -1, box[0], box[2], box[1], box[3]])
        }
        #expect(array.lines[1].contains("\"error\"") && array.lines[1].contains("/nonexistent.png"))
    }

    @Test func aBrokenStreamIsReportedByNameAndFrame() throws {
        let (upright, _) = try Self.zidaneFrames()
        var writer = Y4MWriter(width: 160, height: 90)
        writer.append(upright)
        writer.append(upright)
        let truncated = Array(writer.bytes.dropLast(1000))
        let path = try Scenes.temporaryFile("truncated.y4m", bytes: truncated)
        let run = try Self.swiftYOLO(["video", "--imgsz", "160", path])
        #expect(run.status == 1)
        let objects = run.objects
        #expect(objects.map { $0["frame"] as? Int ?? -1 }.first == 0, "frame 0 still processed")
        let error = try #require(objects.first { $0["event"] as? String == "error" })
        #expect((error["error"] as? String)?.contains("'\(path)' frame 1 is truncated") == true, "\(error)")
        #expect(objects.last?["event"] as? String == "end" && objects.last?["processed"] as? Int == 1)

        let notAStream = try Self.swiftYOLO(["video", Scenes.busPath])
        #expect(notAStream.status == 1 && notAStream.stderr.isEmpty)
        #expect((notAStream.objects.first?["error"] as? String)?.contains("'\(Scenes.busPath)' is not a YUV4MPEG2 stream: it is a JPEG image; give a directory of frames") == true, "\(notAStream.stdout)")
        #expect(notAStream.objects.last?["event"] as? String == "end")
        let badOption = try Self.swiftYOLO(["video", "--every", "0", path])
        #expect(badOption.status != 0 && badOption.stderr.contains("--every must be at least 1"))
        // --settle-iou is checked without --settle too, as the tracker's options are without --smooth.
        for iou in ["nan", "1", "-0.1"] {
            let badSettle = try Self.swiftYOLO(["video", "--settle-iou", iou, path])
            #expect(badSettle.status == 64 && badSettle.stderr.contains("settle IoU must lie in [0, 1), got"), "\(iou): \(badSettle.stderr)")
        }
        let badRotation = try Self.swiftYOLO(["detect", "--rotations", "0,45", Scenes.busPath])
        #expect(badRotation.status != 0 && badRotation.stderr.contains("--rotations must list angles among 0, 90, 180, 270"))
    }

    /// Ultralytics' own detections of the upright bus.jpg at the default arguments.
    static func expectedUprightBus() throws -> [(classId: Int, confidence: Double, box: BoundingBox)] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Scenes.repository + "/Tests/Fixtures/detections/default.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let results = try #require(root["results"] as? [[String: Any]])
        let bus = try #require(results.first { ($0["image"] as? String)?.hasSuffix("bus.jpg") == true })
        return try #require(bus["detections"] as? [[String: Any]]).map { d in
            let b = d["box"] as? [Double] ?? []
            return (d["class"] as? Int ?? -1, d["confidence"] as? Double ?? -1,
                    BoundingBox(x1: Float(b[0]), y1: Float(b[1]), x2: Float(b[2]), y2: Float(b[3])))
        }
    }

    @Test func rotationPassFindsTheBusLyingOnItsSide() throws {
        // bus.jpg turned 90° counter-clockwise (1080×810): the 90° clockwise pass stands it upright.
        let upright = try ImageDecoder().decode(contentsOf: Scenes.busPath)
        let turned = Rotation.degrees270.rotate(upright)
        let path = try ScratchDirectory.fresh("bus-sideways.png")
        try turned.writePNG(to: path)
        let run = try Self.swiftYOLO(["detect", "--json", "--rotations", "0,90", path])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(run.objects.first)
        #expect(object["width"] as? Int == 1080 && object["height"] as? Int == 810)
        let merged = try #require(object["detections"] as? [[String: Any]])
        #expect(merged.allSatisfy { [0, 90].contains($0["rotation"] as? Int ?? -1) })
        for expected in try Self.expectedUprightBus() {
            // Where the upright detection lies in the turned image.
            let box = Rotation.degrees270.mapToRotated(expected.box, originalWidth: upright.width, originalHeight: upright.height)
            let match = merged.first { d in
                guard d["class"] as? Int == expected.classId, let b = d["box"] as? [Double], b.count == 4 else { return false }
                return zip(b, [box.x1, box.y1, box.x2, box.y2]).allSatisfy { abs($0 - Double($1)) <= 1 }
            }
            let found = try #require(match, "class \(expected.classId) at \(box) not found in \(merged)")
            #expect(found["rotation"] as? Int == 90, "\(found)")
            #expect(abs((found["confidence"] as? Double ?? 0) - expected.confidence) < 0.005, "\(found) vs \(expected.confidence)")
        }
    }
}
