import Foundation
import Testing
import SwiftYOLO

/// Background replacement and instance maps on bus.jpg with the reference segmentation model.
@Suite struct BackgroundTests {
    static func detector() throws -> Detector {
        let path = Fixtures.path("Weights/yolo11n-seg.swyolo")
        _ = try Fixtures.require(path)
        return try Detector(modelPath: path)
    }

    @Test func whiteBehindPeopleKeepsExactlyTheirPixels() throws {
        let detector = try Self.detector()
        let image = try detector.decoder.decode(contentsOf: Fixtures.path("../shared/images/bus.jpg"))
        let person: Set<Int> = [0]
        let replaced = try detector.replaceBackground(of: image, with: .white, classes: person)
        #expect(replaced.channels == 3 && replaced.width == image.width && replaced.height == image.height)
        let union = replaced.result.foregroundMask(classes: person)
        let kept = union.reduce(0) { $0 + Int($1) }
        // Four people; together they cover a sizeable part of the picture but far from all of it.
        #expect(replaced.result.detections.filter { $0.classId == 0 }.count == 4)
        #expect(kept > image.width * image.height / 20 && kept < image.width * image.height / 2, "\(kept) pixels kept")
        var wrong = 0
        for i in 0..<(image.width * image.height) {
            let pixel = Array(replaced.pixels[(i * 3)..<(i * 3 + 3)])
            let expected = union[i] != 0 ? Array(image.pixels[(i * 3)..<(i * 3 + 3)]) : [255, 255, 255]
            if pixel != expected { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) pixels neither the image's (inside the people) nor white (outside)")
    }

    @Test func transparentAndFeatheredEdges() throws {
        let detector = try Self.detector()
        let image = try detector.decoder.decode(contentsOf: Fixtures.path("../shared/images/bus.jpg"))
        let hard = try detector.replaceBackground(of: image, with: .transparent, classes: [0])
        let union = hard.result.foregroundMask(classes: [0])
        #expect(hard.channels == 4)
        #expect((0..<union.count).allSatisfy { hard.pixels[$0 * 4 + 3] == (union[$0] != 0 ? 255 : 0) })
        // The colour is the image's where any of it shows, and black where none does: the removed
        // background was kept under alpha 0, for any tool that drops the alpha to show again.
        var wrongColour = 0
        for i in 0..<union.count {
            let expected: [UInt8] = union[i] != 0 ? Array(image.pixels[(i * 3)..<(i * 3 + 3)]) : [0, 0, 0]
            if Array(hard.pixels[(i * 4)..<(i * 4 + 3)]) != expected { wrongColour += 1 }
        }
        #expect(wrongColour == 0, "\(wrongColour) pixels neither the image's colour (inside) nor black (outside)")
        let soft = try detector.replaceBackground(of: image, with: .transparent, classes: [0], feather: 4)
        let alphas = (0..<union.count).map { soft.pixels[$0 * 4 + 3] }
        let partial = alphas.filter { $0 > 0 && $0 < 255 }.count
        // A soft edge: partial alpha along the outlines only, full alpha deep inside, none far outside.
        #expect(partial > 1000 && partial < union.count / 10, "\(partial) partially transparent pixels")
        #expect(alphas[0] == 0)
        let colouredUnderNoAlpha = (0..<union.count).filter { i in alphas[i] == 0 && soft.pixels[(i * 4)..<(i * 4 + 3)].contains { $0 != 0 } }
        #expect(colouredUnderNoAlpha.isEmpty, "\(colouredUnderNoAlpha.count) pixels of alpha 0 keep a colour")
    }

    @Test func anotherPictureBehindThePeople() throws {
        let detector = try Self.detector()
        let image = try detector.decoder.decode(contentsOf: Fixtures.path("../shared/images/bus.jpg"))
        // A picture of another size, stretched to the image: here a 2×1 picture, left red, right blue.
        let picture = RGBImage(width: 2, height: 1, pixels: [255, 0, 0, 0, 0, 255])
        let replaced = try detector.replaceBackground(of: image, with: .image(picture), classes: [0])
        let union = replaced.result.foregroundMask(classes: [0])
        // (5, 5) and (805, 5) are sky, far from anyone: the stretched picture's two ends.
        #expect(union[5 * image.width + 5] == 0 && union[5 * image.width + 805] == 0)
        #expect(Array(replaced.pixels[((5 * image.width + 5) * 3)..<((5 * image.width + 5) * 3 + 3)]) == [255, 0, 0])
        #expect(Array(replaced.pixels[((5 * image.width + 805) * 3)..<((5 * image.width + 805) * 3 + 3)]) == [0, 0, 255])
    }

    @Test func aBGRAFrameGivesTheSameCut() throws {
        let detector = try Self.detector()
        let image = try detector.decoder.decode(contentsOf: Fixtures.path("../shared/images/bus.jpg"))
        var bgra = [UInt8](repeating: 255, count: image.width * image.height * 4)
        for i in 0..<(image.width * image.height) {
            bgra[i * 4] = image.pixels[i * 3 + 2]
            bgra[i * 4 + 1] = image.pixels[i * 3 + 1]
            bgra[i * 4 + 2] = image.pixels[i * 3]
        }
        let fromFrame = try bgra.withUnsafeBytes { bytes in
            try detector.replaceBackground(in: PixelBuffer(format: .bgra8, width: image.width, height: image.height, bytesPerRow: image.width * 4, bytes: bytes),
                                           with: .white, classes: [0])
        }
        let fromImage = try detector.replaceBackground(of: image, with: .white, classes: [0])
        #expect(fromFrame.pixels == fromImage.pixels)
    }

    @Test func detectionModelsAreRefused() throws {
        let detector = try Detector(modelPath: try Fixtures.referenceWeights())
        let image = try detector.decoder.decode(contentsOf: Fixtures.path("../shared/images/bus.jpg"))
        #expect(throws: DetectorError.self) { try detector.replaceBackground(of: image, with: .white) }
    }

    @Test func classesTheModelLacksAreRefused() throws {
        let detector = try Self.detector()
        let image = try detector.decoder.decode(contentsOf: Fixtures.path("../shared/images/bus.jpg"))
        #expect(throws: DetectorError.invalidOptions(reason: "class id 9999 is outside 0..<80")) {
            try detector.replaceBackground(of: image, with: .white, classes: [0, 9999])
        }
    }

    @Test func commandLineWritesPicturesAndInstanceMaps() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift-yolo-background-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let model = Fixtures.path("Weights/yolo11n-seg.swyolo"), bus = Fixtures.path("../shared/images/bus.jpg")
        let run = try CommandLineTests.swiftYOLO(["background", "--model", model, "--replace", "#00ff00", "--classes", "person", "--save", directory, bus])
        #expect(run.status == 0, "\(run.stderr)")
        let picture = try ImageDecoder().decode(contentsOf: directory + "/bus.png")
        #expect(picture.pixel(x: 400, y: 100) == (0, 255, 0))  // sky above the bus: background
        let masks = try CommandLineTests.swiftYOLO(["detect", "--json", "--model", model, "--masks", directory + "/masks", bus])
        #expect(masks.status == 0, "\(masks.stderr)")
        let map = try ImageDecoder().decode(contentsOf: directory + "/masks/bus.png")  // gray, read back as RGB
        let result = try Self.detector().run(imageAt: bus)
        let expected = result.instanceMap()
        #expect((0..<expected.count).allSatisfy { map.pixels[$0 * 3] == expected[$0] })
        #expect(Set(expected) == Set(0...UInt8(result.detections.count)))
        #expect(masks.stdout.contains("\"masks\": \"\(directory)/masks/bus.png\"}"), "\(masks.stdout)")
        // A second run keeps the first map and says in the JSON where the new one went.
        let again = try CommandLineTests.swiftYOLO(["detect", "--json", "--model", model, "--masks", directory + "/masks", bus])
        #expect(again.status == 0 && again.stdout.contains("\"masks\": \"\(directory)/masks/bus_2.png\"}"), "\(again.stdout)")
        // The detection model, refused before any input is read: with no image to read it ran, said
        // "no .png/.jpg/.jpeg files" and exited 0, and a first image that failed to decode was counted
        // as a failed input before the second stopped the run.
        let empty = directory + "/no-images"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        for inputs in [[bus], [empty], [directory + "/missing.jpg", bus]] {
            let refused = try CommandLineTests.swiftYOLO(["background", "--save", directory] + inputs)
            #expect(refused.status == 64 && refused.stdout.isEmpty
                    && refused.stderr.contains("background needs a segmentation model (such as Weights/yolo11n-seg.swyolo"),
                    "\(inputs): \(refused.status) \(refused.stderr)")
        }
        // --masks and --faces with a model of another task wrote empty maps and counted no faces, without a word.
        for (arguments, message) in [(["--masks", directory + "/detect-masks"], "--masks needs a segmentation model"),
                                     (["--model", Fixtures.path("Weights/yolo11n-pose.swyolo"), "--masks", directory + "/pose-masks"], "--masks needs a segmentation model"),
                                     (["--model", model, "--faces"], "--faces needs a pose model")] {
            let run = try CommandLineTests.swiftYOLO(["detect"] + arguments + [bus])
            #expect(run.status == 64 && run.stderr.contains(message), "\(arguments): \(run.status) \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/detect-masks/bus.png"))
    }

    /// `--save-format jpg` was listed in `background --help` and ignored (a PNG was written), and the
    /// JSON's decode time was 0.
    @Test func commandLineWritesJPEGAndTimesTheDecode() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift-yolo-background-jpg-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let model = Fixtures.path("Weights/yolo11n-seg.swyolo"), bus = Fixtures.path("../shared/images/bus.jpg")
        let run = try CommandLineTests.swiftYOLO(["background", "--json", "--model", model, "--save-format", "jpg", "--save", directory, bus])
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(line["saved"] as? String == directory + "/bus.jpg")
        #expect(((line["timing_ms"] as? [String: Any])?["decode"] as? Double ?? 0) > 0, "\(run.stdout)")
        let written = try Data(contentsOf: URL(fileURLWithPath: directory + "/bus.jpg"))
        #expect(Array(written.prefix(3)) == [0xFF, 0xD8, 0xFF])  // a JPEG
        let picture = try ImageDecoder().decode(contentsOf: directory + "/bus.jpg")
        #expect(picture.width == 810 && picture.height == 1080)

        let refused = try CommandLineTests.swiftYOLO(["background", "--model", model, "--replace", "transparent", "--save-format", "jpg",
                                                      "--save", directory, bus])
        #expect(refused.status == 64 && refused.stderr.contains("--replace transparent needs --save-format png"), "\(refused.stderr)")

        // A replacement picture that is there but cut short is bad data (65), naming it; a word that
        // is neither a colour nor a file is a usage error (64). Both before any input is read.
        let truncated = directory + "/cut-short.jpg"
        try Data(try Data(contentsOf: URL(fileURLWithPath: bus)).prefix(5000)).write(to: URL(fileURLWithPath: truncated))
        for (replace, status, message) in [(truncated, Int32(65), "'\(truncated)'"), ("mauve", 64, "--replace mauve is neither white")] {
            let run = try CommandLineTests.swiftYOLO(["background", "--model", model, "--replace", replace, "--save", directory + "/never", bus])
            #expect(run.status == status && run.stderr.contains(message) && run.stdout.isEmpty, "\(replace): \(run.status) \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/never"))
    }
}
