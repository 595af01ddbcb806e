import Foundation
import Testing
import YOLOImage
import YOLOVideo

/// `YUVToRGB` against what ffmpeg itself makes of the same YUV4MPEG2 frames (`Fixtures/README.md`).
@Suite struct YUVConversionTests {
    @Test(arguments: ["zidane-70x48-yuv420p", "bus-70x48-yuvj420p", "zidane-70x48-yuv444p"])
    func matchesFFmpegRGB24(fixture: String) throws {
        let reader = try Y4MReader(path: TestStreams.fixtures + fixture + ".y4m")
        let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestStreams.fixtures + fixture + ".rgb")))
        let frame = try #require(try reader.read()).decode()
        #expect(try reader.read() == nil, "one frame")
        #expect(frame.image.width == 70 && frame.image.height == 48)
        #expect(expected.count == 70 * 48 * 3)
        var largest = 0, differing = 0, first: Int?
        for (i, (a, b)) in zip(frame.image.pixels, expected).enumerated() {
            let d = abs(Int(a) - Int(b))
            if d > 0 { differing += 1; first = first ?? i }
            largest = max(largest, d)
        }
        #expect(largest <= 1, "\(fixture): largest difference \(largest) at byte \(first ?? -1)")
        // In fact byte-identical: swscale's fixed-point arithmetic is reproduced exactly.
        #expect(differing == 0, "\(fixture): \(differing) bytes differ from ffmpeg, first at \(first ?? -1)")
    }

    @Test func headerOfTheFixturesIsReadAsFFmpegWroteIt() throws {
        let limited = try Y4MReader(path: TestStreams.fixtures + "zidane-70x48-yuv420p.y4m").header
        #expect(limited == Y4MHeader(width: 70, height: 48, frameRateNumerator: 25, frameRateDenominator: 1, chroma: .c420jpeg, range: .limited))
        #expect(try Y4MReader(path: TestStreams.fixtures + "bus-70x48-yuvj420p.y4m").header.range == .full)
        #expect(try Y4MReader(path: TestStreams.fixtures + "zidane-70x48-yuv444p.y4m").header.chroma == .c444)
    }

    @Test func greyLevelsAndPrimariesRoundTripThroughTheWriter() throws {
        // Studio-swing grey and saturated colours survive RGB → Y′CbCr (writer) → RGB (reader) within 2.
        let colours: [(UInt8, UInt8, UInt8)] = [(0, 0, 0), (255, 255, 255), (128, 128, 128), (255, 0, 0), (0, 255, 0), (0, 0, 255), (40, 90, 200)]
        for chroma in [Y4MChroma.c420jpeg, .c444] {
            for colour in colours {
                let image = RGBImage(width: 4, height: 2, fill: colour)
                let planes = Y4MWriter.planes(of: image, chroma: chroma)
                let back = YUVToRGB().convert(planes, width: 4, height: 2, chroma: chroma)
                let p = back.pixel(x: 1, y: 1)
                #expect(abs(Int(p.r) - Int(colour.0)) <= 2 && abs(Int(p.g) - Int(colour.1)) <= 2 && abs(Int(p.b) - Int(colour.2)) <= 2,
                        "\(chroma) \(colour) came back as \(p)")
            }
        }
    }

    /// A frame converted in bands of rows (here three, run last band first) gives the bytes of one
    /// serial pass, 4:2:0 and 4:4:4, with odd sides and more threads than rows.
    @Test func bandsOfRowsGiveTheSerialBytes() {
        let reversed = ParallelLoop(threads: 3) { count, body in for index in (0..<count).reversed() { body(index) } }
        var state: UInt64 = 7
        for chroma in [Y4MChroma.c420jpeg, .c444] {
            for (width, height) in [(37, 23), (70, 48), (5, 2), (1, 1)] {
                let c = chroma.chromaSize(width: width, height: height)
                let planes = (0..<(width * height + 2 * c.width * c.height)).map { _ -> UInt8 in
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return UInt8(truncatingIfNeeded: state >> 56)
                }
                for range in [YUVRange.limited, .full] {
                    let serial = YUVToRGB(range: range).convert(planes, width: width, height: height, chroma: chroma)
                    let banded = YUVToRGB(range: range).convert(planes, width: width, height: height, chroma: chroma, parallel: reversed)
                    #expect(banded.pixels == serial.pixels, "\(chroma) \(width)×\(height) \(range)")
                }
            }
        }
    }
}
