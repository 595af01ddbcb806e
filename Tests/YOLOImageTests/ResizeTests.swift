import TestSupport
import XCTest

import YOLOImage

/// `BilinearResize` against `cv2.resize(INTER_LINEAR)` outputs: identical bytes (tolerance 0),
/// including upscales, 1-pixel sides, the identity and OpenCV's exact-2× INTER_AREA shortcut.
final class ResizeTests: XCTestCase {
    func testMatchesOpenCVBitExactly() throws {
        let cases = try ImageFixtures.load(ResizeFixture.self, "resize.json").cases
        XCTAssertGreaterThanOrEqual(cases.count, 30)
        var overall = 0
        for c in cases {
            let (sw, sh, dw, dh) = (c.srcW, c.srcH, c.dstW, c.dstH)
            let src = RGBImage(width: sw, height: sh, pixels: ImageFixtures.bytes(base64: c.srcBase64))
            let expected = ImageFixtures.bytes(base64: c.dstBase64)
            let out = BilinearResize.resize(src, width: dw, height: dh)
            let (worst, index) = ImageFixtures.maxDifference(out.pixels, expected)
            overall = max(overall, worst)
            XCTAssertEqual(worst, 0, "\(sw)x\(sh) -> \(dw)x\(dh): max |diff| \(worst) at byte \(index)")
        }
        XCTAssertEqual(overall, 0)
    }

    /// The fixed-point path against a plain float bilinear (the slow, obviously-correct twin):
    /// within 1 level everywhere (the 11-bit weights and truncating vertical pass cost at most that).
    func testCloseToFloatBilinear() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20 {
            let sw = Int.random(in: 2...40, using: &rng), sh = Int.random(in: 2...40, using: &rng)
            let dw = Int.random(in: 1...60, using: &rng), dh = Int.random(in: 1...60, using: &rng)
            let src = RGBImage(width: sw, height: sh, pixels: (0..<sw * sh * 3).map { _ in UInt8.random(in: 0...255, using: &rng) })
            if 2 * dw == sw && 2 * dh == sh { continue }
            let fast = BilinearResize.resize(src, width: dw, height: dh)
            let slow = floatBilinear(src, width: dw, height: dh)
            let (worst, _) = ImageFixtures.maxDifference(fast.pixels, slow)
            XCTAssertLessThanOrEqual(worst, 1, "\(sw)x\(sh) -> \(dw)x\(dh)")
        }
    }

    func floatBilinear(_ src: RGBImage, width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let sx = Double(src.width) / Double(width), sy = Double(src.height) / Double(height)
        for y in 0..<height {
            let fy = max((Double(y) + 0.5) * sy - 0.5, 0)
            let y0 = min(Int(fy), src.height - 1), y1 = min(y0 + 1, src.height - 1)
            let wy = fy - Double(Int(fy))
            for x in 0..<width {
                let fx = max((Double(x) + 0.5) * sx - 0.5, 0)
                let x0 = min(Int(fx), src.width - 1), x1 = min(x0 + 1, src.width - 1)
                let wx = x0 == src.width - 1 ? 0 : fx - Double(Int(fx))
                for c in 0..<3 {
                    func p(_ xx: Int, _ yy: Int) -> Double { Double(src.pixels[(yy * src.width + xx) * 3 + c]) }
                    let top = p(x0, y0) * (1 - wx) + p(x1, y0) * wx
                    let bottom = p(x0, y1) * (1 - wx) + p(x1, y1) * wx
                    out[(y * width + x) * 3 + c] = UInt8(((top * (1 - wy) + bottom * wy)).rounded())
                }
            }
        }
        return out
    }
}
