// A user's program: it knows only `import SwiftYOLO`.
//
//   consumer MODEL IMAGE...           detects in each image with one detector, as a service would,
//                                     and prints one line per image: its detections and the time
//                                     the whole call took
//   consumer --frames MODEL IMAGE     hands the image over as a camera would, as BGRA with padded
//                                     rows and as NV12, with options given per call, and prints
//                                     what each found
import Foundation
import SwiftYOLO

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("consumer: \(message)\n".utf8))
    exit(status)
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func summary(_ detections: [Detection]) -> String {
    detections.map { "\($0.label) \(String(format: "%.3f", $0.confidence))" }.joined(separator: ", ")
}

/// The image as a camera's BGRA frame, each row padded to a multiple of 64 bytes.
func bgraFrame(_ image: RGBImage) -> (bytes: [UInt8], bytesPerRow: Int) {
    let bytesPerRow = (image.width * 4 + 63) / 64 * 64
    var bytes = [UInt8](repeating: 0, count: bytesPerRow * image.height)
    for y in 0..<image.height {
        for x in 0..<image.width {
            let (r, g, b) = image.pixel(x: x, y: y)
            let o = y * bytesPerRow + 4 * x
            (bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]) = (b, g, r, 255)
        }
    }
    return (bytes, bytesPerRow)
}

/// The image as a video decoder's NV12 frame: BT.601 limited-range luma, then interleaved Cb, Cr
/// pairs, each the mean of a 2×2 block.
func nv12Frame(_ image: RGBImage) -> (luma: [UInt8], chroma: [UInt8]) {
    let (w, h) = (image.width, image.height)
    let (cw, ch) = ((w + 1) / 2, (h + 1) / 2)
    func code(_ value: Double) -> UInt8 { UInt8(min(max(value.rounded(), 0), 255)) }
    var luma = [UInt8](repeating: 0, count: w * h), chroma = [UInt8](repeating: 0, count: 2 * cw * ch)
    for y in 0..<h {
        for x in 0..<w {
            let (r, g, b) = image.pixel(x: x, y: y)
            luma[y * w + x] = code(16 + 0.256788 * Double(r) + 0.504129 * Double(g) + 0.097906 * Double(b))
        }
    }
    for cy in 0..<ch {
        for cx in 0..<cw {
            var (r, g, b, n) = (0.0, 0.0, 0.0, 0.0)
            for y in (2 * cy)..<min(2 * cy + 2, h) {
                for x in (2 * cx)..<min(2 * cx + 2, w) {
                    let p = image.pixel(x: x, y: y)
                    (r, g, b, n) = (r + Double(p.r), g + Double(p.g), b + Double(p.b), n + 1)
                }
            }
            (r, g, b) = (r / n, g / n, b / n)
            chroma[2 * (cy * cw + cx)] = code(128 - 0.148223 * r - 0.290993 * g + 0.439216 * b)
            chroma[2 * (cy * cw + cx) + 1] = code(128 + 0.439216 * r - 0.367788 * g - 0.071427 * b)
        }
    }
    return (luma, chroma)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let frames = arguments.first == "--frames"
if frames { arguments.removeFirst() }
guard arguments.count >= 2 else { fail("usage: consumer [--frames] MODEL IMAGE...", status: 64) }
do {
    let detector = try Detector(contentsOf: URL(fileURLWithPath: arguments[0]))
    if frames {
        let path = arguments[1]
        let image = try ImageDecoder().decode(contentsOf: path)
        print("file: \(summary(try detector.detect(contentsOf: URL(fileURLWithPath: path))))")
        let bgra = bgraFrame(image)
        let fromBGRA = try bgra.bytes.withUnsafeBytes { bytes in
            try detector.detect(in: PixelBuffer(format: .bgra8, width: image.width, height: image.height,
                                                bytesPerRow: bgra.bytesPerRow, bytes: bytes))
        }
        print("bgra8, \(bgra.bytesPerRow) bytes per row: \(summary(fromBGRA))")
        var people = DetectionOptions()
        people.classes = [0]
        people.confidenceThreshold = 0.5
        let nv12 = nv12Frame(image)
        let fromNV12 = try nv12.luma.withUnsafeBytes { y in
            try nv12.chroma.withUnsafeBytes { uv in
                try detector.detect(in: PixelBuffer(format: .nv12, width: image.width, height: image.height, planes: [
                    .init(bytes: y, bytesPerRow: image.width), .init(bytes: uv, bytesPerRow: 2 * ((image.width + 1) / 2))]),
                                    options: people)
            }
        }
        print("nv12, persons at 0.5: \(summary(fromNV12))")
    } else {
        for image in arguments.dropFirst() {
            let start = ContinuousClock.now
            let detections = try detector.detect(imageAt: image)
            let elapsed = milliseconds(ContinuousClock.now - start)
            print("\(image): \(detections.count) detections in \(String(format: "%.2f", elapsed)) ms: \(summary(detections))")
        }
    }
} catch {
    fail(error.localizedDescription, status: 1)
}
