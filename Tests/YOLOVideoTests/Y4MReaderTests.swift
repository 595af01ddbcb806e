import Foundation
import Testing
import YOLOImage
import YOLOVideo

/// Reading YUV4MPEG2 streams built in code: frame counts and times, sizes, and every kind of bad
/// header or frame reported with the source's name (and the frame's number).
@Suite struct Y4MReaderTests {
    /// A stream of `count` 16×8 frames, frame k filled with grey level 10·k mod 250.
    static func greyStream(count: Int, chroma: Y4MChroma = .c420jpeg, rate: (Int, Int) = (30000, 1001)) -> [UInt8] {
        var writer = Y4MWriter(width: 16, height: 8, frameRateNumerator: rate.0, frameRateDenominator: rate.1, chroma: chroma)
        for k in 0..<count { let g = UInt8(10 * k % 250); writer.append(RGBImage(width: 16, height: 8, fill: (g, g, g))) }
        return writer.bytes
    }

    @Test func readsEveryFrameInOrderWithItsTime() throws {
        let path = try TestStreams.temporaryFile("grey.y4m", bytes: Self.greyStream(count: 7))
        let reader = try Y4MReader(path: path)
        #expect(reader.header.frameRateNumerator == 30000 && reader.header.frameRateDenominator == 1001)
        var frames: [VideoFrame] = []
        while let pending = try reader.read() { frames.append(try pending.decode()) }
        #expect(frames.map(\.index) == Array(0..<7))
        #expect(abs(frames[3].time - 3 * 1001.0 / 30000) < 1e-12)
        for frame in frames {
            let p = frame.image.pixel(x: 5, y: 5)
            #expect(abs(Int(p.g) - 10 * frame.index) <= 1, "frame \(frame.index) grey \(p)")
        }
    }

    @Test func sampleImagesSurviveAStreamWithinAFewLevels() throws {
        let zidane = TestStreams.shrink(try ImageDecoder().decode(contentsOf: TestStreams.zidane), by: 8)  // 160×90
        for chroma in [Y4MChroma.c420jpeg, .c444] {
            var writer = Y4MWriter(width: zidane.width, height: zidane.height, chroma: chroma)
            writer.append(zidane)
            let path = try TestStreams.temporaryFile("zidane-\(chroma.rawValue).y4m", bytes: writer.bytes)
            let frame = try #require(try Y4MReader(path: path).read()).decode()
            let mean = zip(frame.image.pixels, zidane.pixels).map { abs(Double($0) - Double($1)) }.reduce(0, +) / Double(zidane.pixels.count)
            #expect(mean < (chroma == .c444 ? 1.0 : 6.0), "\(chroma): mean difference \(mean)")
        }
    }

    @Test func headerTagsAndDefaults() throws {
        func header(_ line: String) throws(VideoError) -> Y4MHeader {
            try Y4MHeader(parsing: Array(line.utf8), source: "s.y4m", maxPixels: 1_000_000)
        }
        let plain = try header("YUV4MPEG2 W6 H4")
        #expect(plain.frameRate == 25 && plain.chroma == .c420jpeg && plain.range == .limited)
        #expect(plain.frameByteCount == 24 + 2 * 3 * 2)
        #expect(try header("YUV4MPEG2 W7 H5 C420 F0:0").frameByteCount == 35 + 2 * 4 * 3)
        #expect(try header("YUV4MPEG2 W7 H5 C420paldv Ib A10:11 XYSCSS=420PALDV").chroma == .c420paldv)
        #expect(try header("YUV4MPEG2 W7 H5 C444 XCOLORRANGE=FULL F50:1").frameByteCount == 3 * 35)
        // ffmpeg's reading of the range: FULL or LIMITED by prefix, anything else ignored (it refused
        // `XCOLORRANGE=full`).
        #expect(try header("YUV4MPEG2 W6 H4 XCOLORRANGE=FULL").range == .full)
        #expect(try header("YUV4MPEG2 W6 H4 XCOLORRANGE=LIMITED").range == .limited)
        #expect(try header("YUV4MPEG2 W6 H4 XCOLORRANGE=full").range == .limited)
        #expect(try header("YUV4MPEG2 W6 H4 XCOLORRANGE=WIDE").range == .limited)
    }

    @Test func badHeadersNameTheSource() throws {
        let cases: [(String, String)] = [
            ("", "empty"),
            ("RIFF1234 W6 H4\n", "not a YUV4MPEG2 stream"),
            ("YUV4MPEG2 H4\n", "no width"),
            ("YUV4MPEG2 W6\n", "no height"),
            ("YUV4MPEG2 W-6 H4\n", "width '-6'"),
            ("YUV4MPEG2 W6 H4 Fx\n", "frame rate"),
            ("YUV4MPEG2 W6 H4 Cmono\n", "Cmono"),
            ("YUV4MPEG2 W6 H4 C420p10\n", "C420p10"),
            ("YUV4MPEG2 W6 H4", "without a newline"),
            ("YUV4MPEG2 W100000 H100000\n", "too large"),
            ("YUV4MPEG2 " + String(repeating: "X", count: 5000) + "\n", "longer than"),
        ]
        for (n, (text, message)) in cases.enumerated() {
            let path = try TestStreams.temporaryFile("bad-header-\(n).y4m", bytes: Array(text.utf8))
            do {
                _ = try Y4MReader(path: path)
                Issue.record("'\(text.prefix(40))' was accepted")
            } catch {
                #expect(error.source == path && "\(error)".contains(path) && "\(error)".contains(message), "\(error)")
            }
        }
        #expect(throws: VideoError.unreadable(source: "/nonexistent/clip.y4m", reason: "No such file or directory")) {
            try Y4MReader(path: "/nonexistent/clip.y4m")
        }
    }

    /// A picture given for a video is named as one (it was "it starts with '??????JFIF??????'").
    @Test func picturesAreNamedAsPictures() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF\0".utf8) + [0x0A]
        for (name, bytes, format) in [("picture.png", png, "PNG"), ("picture.jpg", jpeg, "JPEG")] {
            let path = try TestStreams.temporaryFile(name, bytes: bytes)
            #expect(throws: VideoError.invalidHeader(source: path, reason: "it is a \(format) image; give a directory of frames, "
                                                     + "or a video through ffmpeg (-f yuv4mpegpipe)")) { try Y4MReader(path: path) }
        }
    }

    @Test func badFramesNameTheSourceAndTheFrame() throws {
        let good = Self.greyStream(count: 3)
        let frameBytes = 6 + 16 * 8 * 3 / 2
        let header = good.count - 3 * frameBytes
        let truncated = Array(good.prefix(header + 2 * frameBytes + 100))
        var garbled = good
        garbled.replaceSubrange((header + frameBytes)..<(header + frameBytes + 5), with: Array("FRAMX".utf8))
        let cases: [([UInt8], Int, String)] = [
            (truncated, 2, "frame 2 is truncated: 94 of 192 bytes"),
            (garbled, 1, "frame 1: expected a FRAME line"),
            (Array(good.prefix(header + frameBytes + 3)), 1, "frame 1"),
        ]
        for (n, (bytes, failing, message)) in cases.enumerated() {
            let path = try TestStreams.temporaryFile("bad-frame-\(n).y4m", bytes: bytes)
            let reader = try Y4MReader(path: path)
            for index in 0..<failing { #expect(try reader.read()?.index == index) }
            do {
                _ = try reader.read()
                Issue.record("case \(n) was accepted")
            } catch {
                #expect(!error.isRecoverable)
                #expect("\(error)".contains(path) && "\(error)".contains(message), "\(error)")
            }
        }
    }
}
