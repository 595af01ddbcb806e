import Testing
import SwiftYOLO
import YOLOImage
import YOLOKernels
import YOLOKernelSets
import TestSupport

/// Preprocessing's loops as each kernel set compiles them (`ImageKernels`) give the bytes and float
/// bits of the portable ones, which `YOLOImageTests` hold to OpenCV's (fixtures) and to their naive
/// twins: resizes of random shapes, windows, other channel counts, bus.jpg's canvases, and the CHW
/// conversion. Sets this CPU cannot run are skipped, and the output says so.
@Suite struct ImageKernelsTests {
    static func supported(_ name: String) -> ImageKernels? {
        guard let set = KernelSets.all.first(where: { $0.name == name }), KernelSets.isSupported(set) else {
            print("skipped: the \(name) kernel set's image loops, which this CPU (\(KernelSets.cpuName)) cannot run")
            return nil
        }
        return set.imageKernels
    }

    static func side(using generator: inout SplitMix64) -> Int {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: 1
        case 1...5: Int.random(in: 2...40, using: &generator)
        default: Int.random(in: 41...200, using: &generator)
        }
    }

    @Test(arguments: KernelSets.all.map(\.name))
    func resizesGiveThePortableBytes(_ name: String) {
        guard let kernels = Self.supported(name) else { return }
        var generator = SplitMix64(seed: 17)
        // Exact 2× shrinks (OpenCV's INTER_AREA path) among them: zidane.jpg's, and odd sides.
        var shapes = [(810, 1080, 480, 640), (1, 1, 7, 5), (300, 2, 3, 200), (33, 33, 20, 33), (17, 9, 34, 18),
                      (1280, 720, 640, 360), (34, 18, 17, 9), (2, 2, 1, 1), (66, 130, 33, 65)]
        for _ in 0..<200 { shapes.append((Self.side(using: &generator), Self.side(using: &generator), Self.side(using: &generator), Self.side(using: &generator))) }
        for (sw, sh, dw, dh) in shapes {
            let image = RGBImage(width: sw, height: sh, pixels: (0..<sw * sh * 3).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let expected = BilinearResize.resize(image, width: dw, height: dh)
            #expect(BilinearResize.resize(image, width: dw, height: dh, kernels: kernels).pixels == expected.pixels, "\(name): \(sw)x\(sh) -> \(dw)x\(dh)")
            // A window of it, as crop mode computes.
            let x = Int.random(in: 0..<dw, using: &generator), y = Int.random(in: 0..<dh, using: &generator)
            let window = (x, y, Int.random(in: 1...(dw - x), using: &generator), Int.random(in: 1...(dh - y), using: &generator))
            #expect(BilinearResize.resize(image, width: dw, height: dh, window: window, kernels: kernels).pixels
                    == BilinearResize.resize(image, width: dw, height: dh, window: window).pixels, "\(name): \(sw)x\(sh) -> \(dw)x\(dh) window \(window)")
        }
        // Other channel counts (the horizontal pass's general loop, and the 2× shrink's).
        for (channels, (sw, sh, dw, dh)) in [1, 2, 4].flatMap({ c in [(c, (37, 23, 52, 11)), (c, (38, 22, 19, 11))] }) {
            let source = (0..<sw * sh * channels).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var fast = [UInt8](repeating: 0, count: dw * dh * channels), portable = fast
            source.withUnsafeBufferPointer { source in
                fast.withUnsafeMutableBufferPointer { fast in
                    portable.withUnsafeMutableBufferPointer { portable in
                        BilinearResize.resize(src: source, width: sw, height: sh, channels: channels, dst: portable, width: dw, height: dh)
                        source.baseAddress.map { s in
                            BilinearResize.resize(rows: { row, _ in s + row * sw * channels }, width: sw, height: sh, channels: channels,
                                                  into: fast.baseAddress!, rowStride: dw * channels, width: dw, height: dh,
                                                  window: (0, 0, dw, dh), kernels: kernels)
                        }
                    }
                }
            }
            #expect(fast == portable, "\(name): \(channels) channels, \(sw)x\(sh) -> \(dw)x\(dh)")
        }
    }

    @Test(arguments: KernelSets.all.map(\.name))
    func busCanvasesAndTheirFloatsAreThePortableOnes(_ name: String) throws {
        guard let kernels = Self.supported(name) else { return }
        let bus = try ImageDecoder().decode(contentsOf: Fixtures.path("../shared/images/bus.jpg"))
        for size in [640, 320, 96] {
            for mode in ResizeMode.allCases {
                let options = PreprocessOptions(imageSize: size, mode: mode)
                let (expected, _) = Preprocessor(options: options).canvas(for: bus)
                let (canvas, _) = Preprocessor(options: options, kernels: kernels).canvas(for: bus)
                #expect(canvas.pixels == expected.pixels, "\(name): bus.jpg at \(size) \(mode)")
                var fast = [Float](repeating: .nan, count: canvas.pixels.count), portable = fast
                fast.withUnsafeMutableBufferPointer { Preprocessor.writeCHW(canvas, into: $0, kernels: kernels) }
                portable.withUnsafeMutableBufferPointer { Preprocessor.writeCHW(canvas, into: $0) }
                #expect(fast.map(\.bitPattern) == portable.map(\.bitPattern), "\(name): CHW of bus.jpg at \(size) \(mode)")
            }
        }
    }
}
