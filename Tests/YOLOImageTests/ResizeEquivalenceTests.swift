import Foundation
import TestSupport
import XCTest

import YOLOImage

/// The fast resize, canvas and CHW conversion against their straightforward twins
/// (ReferenceResize.swift) on many random shapes: identical bytes and identical float bits.
final class ResizeEquivalenceTests: XCTestCase {
    func randomImage(width: Int, height: Int, using rng: inout SplitMix64) -> RGBImage {
        RGBImage(width: width, height: height, pixels: (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }

    /// A side length: mostly small (1, 2, odd), sometimes larger.
    func side(using rng: inout SplitMix64) -> Int {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: 1
        case 1: 2
        case 2...6: Int.random(in: 3...40, using: &rng)
        default: Int.random(in: 41...160, using: &rng)
        }
    }

    func assertSame(_ fast: [UInt8], _ slow: [UInt8], _ what: @autoclosure () -> String,
                    file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(fast.count, slow.count, what(), file: file, line: line)
        guard let index = fast.indices.first(where: { $0 < slow.count && fast[$0] != slow[$0] }) else { return }
        XCTFail("\(what()): byte \(index) is \(fast[index]), expected \(slow[index])", file: file, line: line)
    }

    /// Whole-image resizes: upscales and downscales on each axis, 1-pixel sides, extreme aspect
    /// ratios both ways, exact 2× shrinks (INTER_AREA) and the identity.
    func testResizeMatchesReference() {
        var rng = SplitMix64(seed: 2024)
        var shapes: [(Int, Int, Int, Int)] = [
            (1, 1, 1, 1), (1, 1, 7, 5), (7, 5, 1, 1), (1, 9, 3, 4), (9, 1, 4, 3), (2, 2, 1, 1), (4, 6, 2, 3),
            (81, 37, 40, 18), (810, 1080, 480, 640), (1, 300, 5, 1500), (300, 1, 1500, 5), (300, 2, 3, 200),
            (33, 33, 33, 33), (33, 33, 33, 20), (33, 33, 20, 33), (17, 9, 34, 18), (640, 480, 320, 240),
        ]
        for _ in 0..<400 {
            shapes.append((side(using: &rng), side(using: &rng), side(using: &rng), side(using: &rng)))
        }
        for (sw, sh, dw, dh) in shapes {
            let image = randomImage(width: sw, height: sh, using: &rng)
            assertSame(BilinearResize.resize(image, width: dw, height: dh).pixels,
                       ReferenceBilinearResize.resize(image, width: dw, height: dh).pixels, "\(sw)x\(sh) -> \(dw)x\(dh)")
        }
    }

    /// A shape for the windowed and multi-channel tests: random, or every fourth an exact 2× shrink.
    func shape(_ n: Int, using rng: inout SplitMix64) -> (Int, Int, Int, Int) {
        if n % 4 == 0 {
            let dw = side(using: &rng), dh = side(using: &rng)
            return (2 * dw, 2 * dh, dw, dh)
        }
        return (side(using: &rng), side(using: &rng), side(using: &rng), side(using: &rng))
    }

    /// Windows of the resized image (crop mode's path), random in place and size.
    func testWindowedResizeMatchesReference() {
        var rng = SplitMix64(seed: 99)
        for n in 0..<300 {
            let (sw, sh, dw, dh) = shape(n, using: &rng)
            let x = Int.random(in: 0..<dw, using: &rng), y = Int.random(in: 0..<dh, using: &rng)
            let window = (x, y, Int.random(in: 1...(dw - x), using: &rng), Int.random(in: 1...(dh - y), using: &rng))
            let image = randomImage(width: sw, height: sh, using: &rng)
            assertSame(BilinearResize.resize(image, width: dw, height: dh, window: window).pixels,
                       ReferenceBilinearResize.resize(image, width: dw, height: dh, window: window).pixels,
                       "\(sw)x\(sh) -> \(dw)x\(dh) window \(window)")
        }
    }

    /// The raw-buffer entry point with other channel counts than RGB's 3.
    func testOtherChannelCountsMatchReference() {
        var rng = SplitMix64(seed: 5)
        for n in 0..<200 {
            let cn = [1, 2, 4, 5].randomElement(using: &rng)!
            let (sw, sh, dw, dh) = shape(n, using: &rng)
            let src = (0..<sw * sh * cn).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var fast = [UInt8](repeating: 0, count: dw * dh * cn), slow = fast
            src.withUnsafeBufferPointer { s in
                fast.withUnsafeMutableBufferPointer { d in
                    BilinearResize.resize(src: s, width: sw, height: sh, channels: cn, dst: d, width: dw, height: dh)
                }
                slow.withUnsafeMutableBufferPointer { d in
                    ReferenceBilinearResize.resize(src: s, width: sw, height: sh, channels: cn, dst: d, width: dw, height: dh)
                }
            }
            assertSame(fast, slow, "\(cn) channels, \(sw)x\(sh) -> \(dw)x\(dh)")
        }
    }

    /// A loop of `threads` parts run by `DispatchQueue.concurrentPerform`: several at once.
    func concurrent(_ threads: Int) -> ParallelLoop {
        struct Body: @unchecked Sendable { let run: (Int) -> Void }  // each iteration writes only its own part
        return ParallelLoop(threads: threads) { count, body in
            withoutActuallyEscaping(body) { body in
                let shared = Body(run: body)
                DispatchQueue.concurrentPerform(iterations: count) { shared.run($0) }
            }
        }
    }

    /// Canvases in every mode (letterbox and square padding, stretch, crop), with and without
    /// scale-up, odd pad values and target sizes, then their CHW floats bit for bit; cut into 1
    /// to 5 bands and ranges run at once.
    func testCanvasAndCHWMatchReference() {
        var rng = SplitMix64(seed: 640)
        for _ in 0..<300 {
            let image = randomImage(width: side(using: &rng), height: side(using: &rng), using: &rng)
            let options = PreprocessOptions(
                targetHeight: Int.random(in: 1...96, using: &rng), targetWidth: Int.random(in: 1...96, using: &rng),
                mode: ResizeMode.allCases.randomElement(using: &rng)!, stride: [1, 8, 32].randomElement(using: &rng)!,
                padValue: UInt8.random(in: 0...255, using: &rng), scaleUp: Bool.random(using: &rng))
            let threads = Int.random(in: 1...5, using: &rng)
            let what = "\(image.width)x\(image.height), \(options), \(threads) threads"
            let (canvas, g) = Preprocessor(options: options, parallel: concurrent(threads)).canvas(for: image)
            let expected = referenceCanvas(image, options: options)
            XCTAssertEqual([canvas.width, canvas.height], [expected.width, expected.height], what)
            XCTAssertEqual([g.inputWidth, g.inputHeight], [canvas.width, canvas.height], what)
            assertSame(canvas.pixels, expected.pixels, what)
            assertCHWMatchesReference(canvas, parallel: concurrent(threads), what)
        }
    }

    /// bus.jpg as `detect` sees it, at a few sizes and every mode.
    func testBusCanvasesMatchReference() throws {
        let bus = try ImageDecoder().decode(contentsOf: try ImageFixtures.sharedImage("bus.jpg"))
        for size in [640, 320, 1280, 96] {
            for mode in ResizeMode.allCases {
                let options = PreprocessOptions(imageSize: size, mode: mode)
                let expected = referenceCanvas(bus, options: options)
                for threads in [1, 2, 3] {
                    let (canvas, _) = Preprocessor(options: options, parallel: concurrent(threads)).canvas(for: bus)
                    assertSame(canvas.pixels, expected.pixels, "bus.jpg at \(size) \(mode), \(threads) threads")
                    assertCHWMatchesReference(canvas, parallel: concurrent(threads), "bus.jpg at \(size) \(mode), \(threads) threads")
                }
            }
        }
    }

    func assertCHWMatchesReference(_ canvas: RGBImage, parallel: ParallelLoop, _ what: @autoclosure () -> String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        var fast = [Float](repeating: .nan, count: canvas.pixels.count)
        fast.withUnsafeMutableBufferPointer { Preprocessor.writeCHW(canvas, into: $0, parallel: parallel) }
        let slow = referenceCHW(canvas)
        XCTAssertEqual(fast.count, slow.count, what(), file: file, line: line)
        guard let index = fast.indices.first(where: { $0 < slow.count && fast[$0].bitPattern != slow[$0].bitPattern }) else { return }
        XCTFail("\(what()): CHW float \(index) is \(fast[index]), expected \(slow[index])", file: file, line: line)
    }
}
