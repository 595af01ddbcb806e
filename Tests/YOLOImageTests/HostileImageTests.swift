import Foundation
import Testing
import TestSupport

import YOLOImage

/// Hostile images (Tests/Fixtures/images/hostile, written by tools/fuzz/hostile_images.py): every
/// limit holds from the header, is configurable, and is stated in the error; decompression bombs
/// and extreme shapes cost neither time nor memory out of proportion; and every input the image fuzz
/// target has kept (Fuzz/Corpus/image) decodes or is refused with an `ImageError` naming it.
@Suite struct HostileImageTests {
    static func hostile(_ name: String) -> String { ImageFixtures.path("hostile/" + name) }

    /// Runs `body` and returns its result with the seconds it took.
    static func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = ContinuousClock.now
        let result = try body()
        let elapsed = ContinuousClock.now - start
        return (result, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    @Test func sideLimitIsCheckedFromTheHeader() throws {
        let path = Self.hostile("side-70000.png")
        #expect(throws: ImageError.sideTooLong(file: path, width: 70_000, height: 1, limit: 65_535)) {
            try ImageDecoder().decode(contentsOf: path)
        }
        do {
            _ = try ImageDecoder().info(contentsOf: path)
        } catch {
            #expect("\(error)" == "'\(path)' is too large: 70000x1 pixels has a side longer than the limit of 65535 pixels")
        }
        // Configurable: a smaller limit refuses the bus photo, a larger one lets the header through.
        let bus = try ImageFixtures.sharedImage("bus.jpg")
        #expect(throws: ImageError.sideTooLong(file: bus, width: 810, height: 1080, limit: 1000)) {
            try ImageDecoder(maxSide: 1000).info(contentsOf: bus)
        }
        #expect(try ImageDecoder(maxSide: 70_000).info(contentsOf: path).width == 70_000)
    }

    @Test func ancillaryChunkBombsAreCheap() throws {
        // 64 MB of zlib output in a zTXt or iCCP chunk: libpng's chunk allocation limit skips it.
        for name in ["ztxt-bomb.png", "iccp-bomb.png"] {
            let (image, seconds) = try Self.timed { try ImageDecoder().decode(contentsOf: Self.hostile(name)) }
            #expect(image.width == 8 && image.height == 8, "\(name)")
            #expect(seconds < 2, "\(name) took \(seconds) s")
        }
    }

    @Test func thinStripDecodesRowByRow() throws {
        // A 1 x 60,000 strip: decoded into the output buffer row by row (no array of 60,000 row pointers).
        let image = try ImageDecoder().decode(contentsOf: Self.hostile("strip-1x60000.png"))
        #expect(image.width == 1 && image.height == 60_000)
        let last = image.pixel(x: 0, y: 59_999), expected = UInt8(59_999 % 251)
        #expect(last.r == expected && last.g == expected && last.b == expected)
    }

    @Test func cropOfAThinStripResizesOnlyTheWindow() throws {
        // Crop mode scales the short side to the target: the whole strip would become 640 x 38,400,000
        // pixels (115 GB) and the process died; only the 640 x 640 window is computed now.
        let image = try ImageDecoder().decode(contentsOf: Self.hostile("strip-1x60000.png"))
        let preprocessor = Preprocessor(options: PreprocessOptions(imageSize: 640, mode: .crop))
        let ((canvas, geometry), seconds) = Self.timed { preprocessor.canvas(for: image) }
        #expect(canvas.width == 640 && canvas.height == 640)
        #expect(geometry.resizedWidth == 640 && geometry.resizedHeight == 38_400_000)
        #expect(seconds < 2, "took \(seconds) s")
    }

    @Test(arguments: [(7, 300, 64, 2743, 0, 1339), (300, 7, 2743, 64, 1339, 0), (33, 41, 64, 80, 0, 8),
                      (128, 128, 64, 64, 0, 0), (128, 96, 64, 48, 8, 0), (5, 5, 5, 5, 1, 2)])
    func windowedResizeEqualsFullResizeThenCrop(_ sizes: (Int, Int, Int, Int, Int, Int)) {
        let (width, height, targetWidth, targetHeight, x0, y0) = sizes
        var rng = SplitMix64(seed: UInt64(width * 1000 + height))
        let pixels = (0..<(width * height * 3)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let image = RGBImage(width: width, height: height, pixels: pixels)
        let windowWidth = min(64, targetWidth - x0), windowHeight = min(64, targetHeight - y0)
        let full = BilinearResize.resize(image, width: targetWidth, height: targetHeight)
        let window = BilinearResize.resize(image, width: targetWidth, height: targetHeight,
                                           window: (x0, y0, windowWidth, windowHeight))
        #expect(window.width == windowWidth && window.height == windowHeight)
        var mismatches = 0
        for y in 0..<windowHeight {
            for x in 0..<windowWidth where full.pixel(x: x0 + x, y: y0 + y) != window.pixel(x: x, y: y) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0, "\(sizes): \(mismatches) pixels differ")
    }

    @Test func lyingHeaderIsTruncatedNotHung() throws {
        let path = Self.hostile("lying-size.png")
        let (result, seconds) = Self.timed { Result { () throws(ImageError) in try ImageDecoder().decode(contentsOf: path) } }
        guard case .failure(.truncated(path, _)) = result else {
            Issue.record("expected a truncated error, got \(result)")
            return
        }
        #expect(seconds < 2)
    }

    @Test func progressiveScanLimitIsConfigurableAndStated() throws {
        let path = ImageFixtures.path("decode/jpeg_progressive.jpg")
        #expect(try ImageDecoder().decode(contentsOf: path).width > 0)
        do {
            _ = try ImageDecoder(maxProgressiveScans: 2).decode(contentsOf: path)
            Issue.record("decoded with a 2-scan limit")
        } catch {
            guard case .unsupported(path, let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("more than 2 progressive scans (the decoder's maxProgressiveScans limit)"), "\(reason)")
        }
    }

    @Test func fileSizeLimitIsStated() throws {
        let path = ImageFixtures.path("decode/png_rgb8.png")
        #expect(throws: ImageError.unreadable(file: path, reason: "the file is 180 bytes, over the limit of 100")) {
            try ImageDecoder(maxFileBytes: 100).decode(contentsOf: path)
        }
    }

    @Test func devicesAndPipesAreRefused() throws {
        #expect(throws: ImageError.unreadable(file: "/dev/zero", reason: "it is a character device, not a regular file")) {
            try ImageDecoder().decode(contentsOf: "/dev/zero")
        }
    }

    /// The image fuzz target's corpus, findings included: nothing crashes, every error names its input.
    @Test func fuzzCorpusDecodesOrIsRefused() throws {
        let directory = ImageFixtures.repository + "/Fuzz/Corpus/image"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let decoder = ImageDecoder(maxPixels: 1 << 22)
        for name in names.sorted() {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
            do {
                let image = try decoder.decode(bytes, name: name)
                for mode in ResizeMode.allCases {
                    let (canvas, _) = Preprocessor(options: PreprocessOptions(imageSize: 64, mode: mode)).canvas(for: image)
                    #expect(canvas.width <= 64 && canvas.height <= 64)
                }
            } catch {
                #expect(error.file == name)
            }
        }
    }
}
