// libFuzzer target: YUV4MPEG2 streams as `swift-yolo video` reads a .y4m file — the header line and
// its tags, FRAME lines, the planes of every chroma layout it accepts, a stream cut anywhere — and
// each frame's conversion to RGB, on one thread and in bands.
//
// Invariants: a refusal is a `VideoError` that names the input; frames come numbered from 0; each
// decodes to the header's size, three bytes a pixel; the conversion in three bands (run one after
// another here, as the detector's threads would run them at once) gives the serial conversion's
// bytes; reading the same stream again gives the same frames and the same error. libFuzzer's
// -malloc_limit_mb turns an allocation out of proportion to the pixel limit into a finding.
import FuzzSupport
import YOLOImage
import YOLOVideo

private let maxPixels = 1 << 16
private let bands = ParallelLoop(threads: 3) { count, body in for index in 0..<count { body(index) } }

/// Every frame's RGB bytes and the error that ended the stream, if one did.
private func readAll(_ path: String, parallel: ParallelLoop) -> (frames: [[UInt8]], error: String?) {
    var frames: [[UInt8]] = []
    do {
        let reader = try Y4MReader(path: path, maxPixels: maxPixels, parallel: parallel)
        let header = reader.header
        Fuzz.check(header.width > 0 && header.height > 0 && header.width * header.height <= maxPixels, "header \(header)")
        while let pending = try reader.read() {
            Fuzz.check(pending.index == frames.count, "frame \(pending.index) after \(frames.count) frames")
            let frame = try pending.decode()
            Fuzz.check(frame.image.width == header.width && frame.image.height == header.height,
                       "frame \(frame.index) is \(frame.image.width)x\(frame.image.height), the header says \(header.width)x\(header.height)")
            Fuzz.check(frame.image.pixels.count == header.width * header.height * 3, "frame \(frame.index)'s pixel buffer")
            frames.append(frame.image.pixels)
        }
        return (frames, nil)
    } catch {
        Fuzz.check(Fuzz.names(error, path), "the error does not name the input: \(error)")
        return (frames, "\(error)")
    }
}

private func fuzzVideo(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = Fuzz.writeScratch(UnsafeRawBufferPointer(start: data, count: size))
    let serial = readAll(path, parallel: .serial)
    let banded = readAll(path, parallel: bands)
    Fuzz.check(serial.frames == banded.frames, "the conversion in bands differs from the serial one")
    Fuzz.check(serial.error == banded.error, "the second reading ended otherwise: \(serial.error ?? "at the end") / \(banded.error ?? "at the end")")
    return 0
}

Fuzz.run(fuzzVideo)
