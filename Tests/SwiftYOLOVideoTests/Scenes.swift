import Foundation
import SwiftYOLOVideo
import YOLODetect
import YOLOImage
import TestSupport

/// Scenes for the stream tests, built in code: a dimmed window onto a sample image (which can pan)
/// with pure red and blue squares on it as the "objects", written to a YUV4MPEG2 stream.
enum Scenes {
    static let repository = RepositoryFiles.root
    static let zidanePath = repository + "/../shared/images/zidane.jpg"
    static let busPath = repository + "/../shared/images/bus.jpg"

    /// zidane.jpg shrunk 8× (160×90) and dimmed to half, so no pixel of it looks like an object.
    static let background: RGBImage = {
        let full = (try? ImageDecoder().decode(contentsOf: zidanePath)) ?? RGBImage(width: 1280, height: 720, fill: (60, 60, 60))
        let w = full.width / 8, h = full.height / 8
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<3 { pixels[(y * w + x) * 3 + c] = full.pixels[((y * 8) * full.width + x * 8) * 3 + c] / 2 }
            }
        }
        return RGBImage(width: w, height: h, pixels: pixels)
    }()

    static let width = 96, height = 64

    /// A square object: `red` (class 0) or blue (class 1), its top-left corner in frame pixels.
    struct Square {
        var red: Bool
        var x: Int
        var y: Int
        var size = 12
        var box: BoundingBox { BoundingBox(x1: Float(x), y1: Float(y), x2: Float(x + size), y2: Float(y + size)) }
    }

    /// The frame seeing the background from (`panX`, 10), with `squares` drawn on it.
    static func frame(panX: Int, squares: [Square]) -> RGBImage {
        var pixels = [UInt8]()
        for row in 10..<(10 + height) {
            let start = (row * background.width + panX) * 3
            pixels += background.pixels[start..<(start + width * 3)]
        }
        for square in squares {
            for y in max(0, square.y)..<min(height, square.y + square.size) {
                for x in max(0, square.x)..<min(width, square.x + square.size) {
                    let i = (y * width + x) * 3
                    (pixels[i], pixels[i + 1], pixels[i + 2]) = square.red ? (255, 0, 0) : (0, 0, 255)
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Writes the frames as a 4:2:0 YUV4MPEG2 stream at `rate` fps and opens it.
    static func stream(_ name: String, frames: [RGBImage], rate: Int = 25) throws -> Y4MReader {
        var writer = Y4MWriter(width: width, height: height, frameRateNumerator: rate, frameRateDenominator: 1)
        for frame in frames { writer.append(frame) }
        return try Y4MReader(path: try temporaryFile(name + ".y4m", bytes: writer.bytes))
    }

    static func temporaryFile(_ name: String, bytes: [UInt8]) throws -> String {
        try ScratchDirectory.write(bytes, to: name)
    }
}

/// A stand-in for the model: finds the pure red (class 0) and blue (class 1) squares of a frame as
/// 4-connected blobs, in scan order, confidence 0.9. Optionally spends simulated time per frame.
struct SquareDetector: FrameDetector {
    var clock: ManualClock?
    var secondsPerFrame = 0.0

    func detect(_ frame: VideoFrame) throws -> (detections: [RotatedDetection], timings: StageTimings) {
        if let clock { clock.time += secondsPerFrame }
        let image = frame.image, w = image.width, h = image.height
        func kind(_ i: Int) -> Int? {
            let (r, g, b) = (image.pixels[3 * i], image.pixels[3 * i + 1], image.pixels[3 * i + 2])
            if r > 180 && g < 70 && b < 70 { return 0 }
            if b > 180 && r < 70 && g < 70 { return 1 }
            return nil
        }
        var seen = [Bool](repeating: false, count: w * h)
        var found: [RotatedDetection] = []
        for start in 0..<(w * h) where !seen[start] {
            guard let c = kind(start) else { continue }
            var stack = [start], box = (x1: w, y1: h, x2: 0, y2: 0)
            seen[start] = true
            while let i = stack.popLast() {
                let x = i % w, y = i / w
                box = (min(box.x1, x), min(box.y1, y), max(box.x2, x + 1), max(box.y2, y + 1))
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] where nx >= 0 && nx < w && ny >= 0 && ny < h {
                    let j = ny * w + nx
                    if !seen[j] && kind(j) == c { seen[j] = true; stack.append(j) }
                }
            }
            let detection = Detection(classId: c, label: c == 0 ? "red" : "blue", confidence: 0.9,
                                      box: BoundingBox(x1: Float(box.x1), y1: Float(box.y1), x2: Float(box.x2), y2: Float(box.y2)))
            found.append(RotatedDetection(detection: detection, rotation: .degrees0))
        }
        return (found, StageTimings())
    }
}

/// Frames held in memory, as a source of one's own (`PendingFrame(index:time:decode:)`), timed at 25 fps.
final class FramesSource: FrameSource {
    private let images: [RGBImage]
    private var next = 0
    let frameRate: Double?
    init(_ images: [RGBImage], frameRate: Double? = 25) {
        self.images = images
        self.frameRate = frameRate
    }
    var name: String { "frames" }
    func read() throws(VideoError) -> PendingFrame? {
        guard next < images.count else { return nil }
        let index = next, image = images[index]
        next += 1
        return PendingFrame(index: index, time: Double(index) / 25) { image }
    }
}

/// A clock that only moves when told to: `sleep(until:)` jumps to the deadline.
final class ManualClock: FrameClock, @unchecked Sendable {
    var time = 0.0
    func now() -> Double { time }
    func sleep(until deadline: Double) { time = max(time, deadline) }
}
