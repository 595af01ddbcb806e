import Foundation
import YOLOImage
import YOLOVideo
import TestSupport

/// Paths, sample images and small helpers shared by the video tests.
enum TestStreams {
    static let repository = RepositoryFiles.root
    static let fixtures = repository + "/Tests/YOLOVideoTests/Fixtures/"
    static let zidane = repository + "/../shared/images/zidane.jpg"
    static let bus = repository + "/../shared/images/bus.jpg"

    /// Writes `bytes` to a fresh file in the test process's scratch directory.
    static func temporaryFile(_ name: String, bytes: [UInt8]) throws -> String {
        try ScratchDirectory.write(bytes, to: name)
    }

    /// The `width × height` window at (`x`, `y`) of `image`.
    static func crop(_ image: RGBImage, x: Int, y: Int, width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 3)
        for row in y..<(y + height) {
            let start = (row * image.width + x) * 3
            pixels += image.pixels[start..<(start + width * 3)]
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// `image` shrunk by an integer `factor` (nearest sample).
    static func shrink(_ image: RGBImage, by factor: Int) -> RGBImage {
        let w = image.width / factor, h = image.height / factor
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let s = ((y * factor) * image.width + x * factor) * 3, d = (y * w + x) * 3
                pixels[d] = image.pixels[s]
                pixels[d + 1] = image.pixels[s + 1]
                pixels[d + 2] = image.pixels[s + 2]
            }
        }
        return RGBImage(width: w, height: h, pixels: pixels)
    }
}

/// A live source in a test: the frames below `arrived` have arrived (a real pipe's read of one
/// that has not would block until it does).
final class ArrivingSource: FrameSource {
    let inner: any FrameSource
    var arrived = 1
    private var next = 0
    init(_ inner: any FrameSource) { self.inner = inner }
    var name: String { inner.name }
    var frameRate: Double? { inner.frameRate }
    var nextFrameHasArrived: Bool { next < arrived }
    func read() throws(VideoError) -> PendingFrame? {
        next += 1
        return try inner.read()
    }
}

/// A clock that only moves when told to: `sleep(until:)` jumps to the deadline.
final class ManualClock: FrameClock, @unchecked Sendable {
    var time = 0.0
    var sleeps: [Double] = []
    func now() -> Double { time }
    func sleep(until deadline: Double) {
        sleeps.append(deadline)
        time = max(time, deadline)
    }
}
