import ArgumentParser
import FoundationEssentials
import Glibc
import SwiftYOLO
import YOLOFileSystem
import YOLOImage
import YOLOServing

/// `swift-yolo background`: the photo kit's cut-out. Segments each image and replaces everything
/// outside the chosen objects' masks by a colour, transparency or another picture.
struct BackgroundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "background",
        abstract: "Replace the background behind segmented objects (a segmentation model).",
        discussion: """
            Pixels outside the union of the masks of the detected objects (of --classes, when given) \
            become --replace: a colour (white, black, #RRGGBB), transparent (a PNG with alpha), or the \
            pixels of another picture stretched to the image. --feather PX softens the edge over about \
            PX pixels. Each result is written as DIR/<name>.png, or .jpg under --save-format jpg (never \
            replacing a file; a transparent background needs PNG); the detection options are detect's.

            Examples:
              swift-yolo background --model Weights/yolo11n-seg.swyolo --replace white --classes person --save out/ bus.jpg
              swift-yolo background --model Weights/yolo11n-seg.swyolo --replace transparent --feather 3 --save out/ portraits/
            """)

    @Argument(help: ArgumentHelp("Image files (PNG, JPEG), directories of them, and - to read paths from standard input.", valueName: "image|dir|-"))
    var inputs: [String]

    @OptionGroup var options: DetectionArguments

    @Option(help: ArgumentHelp("What replaces the background: white, black, #RRGGBB, transparent, or the path of a PNG/JPEG picture.", valueName: "replacement"))
    var replace: String = "white"

    @Option(parsing: .unconditional, help: ArgumentHelp("Soft edge: blur the cut over this many pixels (0: hard).", valueName: "px"))
    var feather: Int = 0

    func validate() throws {
        guard options.save != nil else { throw ValidationError("background writes its pictures with --save DIR; give one") }
        if options.saveFormat == .jpg, replace.lowercased() == "transparent" {
            throw ValidationError("--replace transparent needs --save-format png: a JPEG has no transparency")
        }
        guard (0...1024).contains(feather) else { throw ValidationError("--feather must lie in 0…1024 pixels, got \(feather)") }
        if replace.hasPrefix("#"), Self.hexColor(replace) == nil {
            throw ValidationError("--replace \(replace): a colour is #RRGGBB (six hex digits)")
        }
    }

    /// `#RRGGBB` as a colour.
    static func hexColor(_ text: String) -> BackgroundReplacement? {
        guard text.count == 7, text.hasPrefix("#"), let value = UInt32(text.dropFirst(), radix: 16) else { return nil }
        return .color(red: UInt8(value >> 16 & 0xff), green: UInt8(value >> 8 & 0xff), blue: UInt8(value & 0xff))
    }

    /// What `--replace` asks for. A file that is there but is not a picture SwiftYOLO can decode is
    /// bad data (exit 65, as an unusable `--labels` file is); a word that is neither a colour nor a
    /// file is a usage error (64).
    func replacement(decoder: ImageDecoder) throws -> BackgroundReplacement {
        switch replace.lowercased() {
        case "white": return .white
        case "black": return .color(red: 0, green: 0, blue: 0)
        case "transparent": return .transparent
        default:
            if let color = Self.hexColor(replace) { return color }
            do {
                return .image(try decoder.decode(contentsOf: replace))
            } catch {
                if (try? RegularFile.check(replace)) != nil { throw CommandFailure.badModelOrData(error, note: " (--replace)") }
                throw CommandFailure.usage("--replace \(replace) is neither white, black, #RRGGBB, transparent nor a readable picture: \(error)")
            }
        }
    }

    func run() throws {
        Interruption.stopForwardPasses()
        let detector = try options.makeDetector()
        // Refused before any input is read (the library checks it at each image), as detect's --masks is.
        guard detector.model.task == .segment else {
            throw CommandFailure.wrongTask("background", needs: "segmentation",
                                           hint: "such as Weights/yolo11n-seg.swyolo, which `make weights` converts", model: detector.model)
        }
        let replacement = try replacement(decoder: detector.decoder)
        try options.createSaveDirectory()
        guard let directory = options.save else { return }
        var failures = 0, done = 0
        /// Failures to write a picture (a full disk, a file-size limit): the status says so (74), not 1.
        var unwritten = 0
        let images = ImageInputs(arguments: inputs), total = images.knownCount
        for input in images {
            let image = input.path
            if let signal = Interruption.signal { throw Interrupted.afterImages(signal: signal, done: done, of: total) }
            let line: String
            do {
                try input.checkListed()
                var decodeTime = Duration.zero
                let decoded = try measure(&decodeTime) { try detector.decoder.decode(contentsOf: image) }
                let replaced: BackgroundReplaced
                var replaceTime = Duration.zero, writeTime = Duration.zero
                do {
                    replaced = try measure(&replaceTime) {
                        try detector.replaceBackground(of: decoded, with: replacement, feather: feather, decodeTime: decodeTime)
                    }
                } catch let error as DetectorError {
                    throw CommandFailure.usage("\(error)")
                }
                let name = image.split(separator: "/").last.map(String.init) ?? image
                let stem = name.lastIndex(of: ".").map { name[..<$0] }.map(String.init) ?? name
                let wanted = Directory.appending(stem.isEmpty ? name : stem, to: directory) + options.saveFormat.fileExtension
                let saved = try CommandFailure.writing {
                    try measure(&writeTime) {
                        // RGBA (a transparent background) is PNG only; `validate` refused it with jpg.
                        replaced.channels == 3
                            ? try RGBImage(width: replaced.width, height: replaced.height, pixels: replaced.pixels).write(to: wanted, format: options.saveFormat)
                            : try Picture(width: replaced.width, height: replaced.height, channels: replaced.channels, pixels: replaced.pixels).writePNG(to: wanted)
                    }
                }
                let result = replaced.result
                let detection = result.timings.total - decodeTime
                line = options.json ? ResultJSON.line(image: image, result: result, saved: saved)
                    : "saved \(DisplayText.terminal(saved)): \(result.detections.count) object(s) kept from \(DisplayText.terminal(image)) in "
                        + ResultJSON.milliseconds(decodeTime + replaceTime + writeTime) + " ms (decode \(ResultJSON.milliseconds(decodeTime)), detection "
                        + ResultJSON.milliseconds(detection) + ", compositing " + ResultJSON.milliseconds(replaceTime - detection)
                        + ", writing \(ResultJSON.milliseconds(writeTime)))"
            } catch let failure as CommandFailure where !CommandFailure.isOutputFailure(failure) {
                throw failure
            } catch let stopped as Interruption.StoppedPass {
                throw Interrupted.afterImages(signal: stopped.signal, done: done, of: total)
            } catch {
                failures += 1
                if CommandFailure.isOutputFailure(error) { unwritten += 1 }
                if options.json {
                    line = ResultJSON.errorLine(image: image, error: error)
                } else {
                    StandardStreams.message("error: \(error)")
                    done += 1
                    continue
                }
            }
            try StandardStreams.line(line)
            done += 1
        }
        // Standard input ended because a signal interrupted its read, or came before it.
        if let signal = ImageInputs.interruption(done: done, of: total) { throw Interrupted.afterImages(signal: signal, done: done, of: total) }
        if failures > 0 {
            if !options.json { StandardStreams.message("\(failures) of \(done) image(s) failed") }
            throw ExitCode(unwritten > 0 ? ExitStatus.outputFailed : ExitStatus.someInputsFailed)
        }
    }
}
