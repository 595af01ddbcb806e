/// Converts 8-bit BT.601 Y′CbCr planes to RGB8 exactly as ffmpeg's libswscale does for
/// `ffmpeg -i in.y4m -pix_fmt rgb24` (swscale defaults, BT.601, FFmpeg 5.1 on x86-64).
///
/// - 4:2:0 (even height): swscale's unscaled `yuv2rgb` converter. Each chroma sample covers its 2×2
///   luma block (no interpolation, siting ignored); the arithmetic is its 16-bit fixed point
///   (`pmulhw`, so every product is floored): `y = ((Y·8 − yOffset) · yCoeff) >> 16`,
///   `R = y + (((V·8 − 1024) · vrCoeff) >> 16)` and likewise for G (two chroma terms) and B, clamped
///   to 0…255. Byte-identical to ffmpeg (checked on bus.jpg, zidane.jpg and a fixture). For odd
///   heights ffmpeg switches to its general scaler, which interpolates chroma; this keeps the
///   unscaled rule there (a difference at chroma edges only).
/// - 4:4:4: swscale's full-chroma output (`yuv2rgb_write_full`): 9-bit-scaled inputs, 13-bit
///   coefficients, rounded at bit 22. Byte-identical to ffmpeg.
///
/// The coefficients are computed as `ff_yuv2rgb_c_init_tables` computes them from the BT.601 inverse
/// matrix `{104597, 132201, 25675, 53279}` (16.16 fixed point: 1.596 V→R, 2.017 U→B, 0.392 U→G,
/// 0.813 V→G): limited range scales luma by 255/219 and subtracts 16; full range scales chroma by 224/255.
package struct YUVToRGB: Sendable {
    package let range: YUVRange

    /// 4:2:0 terms, indexed by the 8-bit code: luma, V→R, U→G, V→G, U→B.
    private let luma: [Int32], redV: [Int32], greenU: [Int32], greenV: [Int32], blueU: [Int32]
    /// 4:4:4 terms (before the shift by 22), indexed the same way.
    private let fullLuma: [Int], fullRedV: [Int], fullGreenU: [Int], fullGreenV: [Int], fullBlueU: [Int]

    package init(range: YUVRange = .limited) {
        self.range = range
        // ff_yuv2rgb_coeffs[SWS_CS_DEFAULT] (ITU-R BT.601), signs as ff_yuv2rgb_c_init_tables sets them.
        var crv = 104_597, cbu = 132_201, cgu = -25_675, cgv = -53_279
        var cy = 1 << 16, oy = 0
        switch range {
        case .limited:
            cy = cy * 255 / 219
            oy = 16 << 16
        case .full:
            // Swift's / truncates toward zero like C's.
            crv = crv * 224 / 255
            cbu = cbu * 224 / 255
            cgu = cgu * 224 / 255
            cgv = cgv * 224 / 255
        }
        let yCoeff = Self.roundToInt16(cy << 13), vrCoeff = Self.roundToInt16(crv << 13)
        let ubCoeff = Self.roundToInt16(cbu << 13), vgCoeff = Self.roundToInt16(cgv << 13)
        let ugCoeff = Self.roundToInt16(cgu << 13), yOffset = Self.roundToInt16(oy << 3)
        let codes = 0..<256
        // pmulhw: the high half (note: in Swift `>>` binds tighter than `*`) of the 16×16-bit product, i.e. floor(a·b / 2^16).
        luma = codes.map { Int32(((($0 << 3) - yOffset) * yCoeff) >> 16) }
        redV = codes.map { Int32(((($0 << 3) - 1024) * vrCoeff) >> 16) }
        greenU = codes.map { Int32(((($0 << 3) - 1024) * ugCoeff) >> 16) }
        greenV = codes.map { Int32(((($0 << 3) - 1024) * vgCoeff) >> 16) }
        blueU = codes.map { Int32(((($0 << 3) - 1024) * ubCoeff) >> 16) }
        // yuv2rgb_full_1_c feeds Y·512 and (C − 128)·512; yuv2rgb_write_full rounds at bit 22.
        let fullOffset = Self.roundToInt16(oy << 9)
        fullLuma = codes.map { ($0 * 512 - fullOffset) * yCoeff + (1 << 21) }
        fullRedV = codes.map { ($0 - 128) * 512 * vrCoeff }
        fullGreenU = codes.map { ($0 - 128) * 512 * ugCoeff }
        fullGreenV = codes.map { ($0 - 128) * 512 * vgCoeff }
        fullBlueU = codes.map { ($0 - 128) * 512 * ubCoeff }
    }

    /// swscale's `roundToInt16`: a 16.16 value rounded to an integer and clamped to int16.
    private static func roundToInt16(_ value: Int) -> Int {
        min(max((value + (1 << 15)) >> 16, -0x7FFF), 0x7FFF)
    }

    /// Converts one row of 4:2:0 (or 4:2:2) samples: `width` luma samples and the chroma samples
    /// covering them, `chromaStep` bytes apart (1 for planar I420, 2 for NV12's interleaved UV,
    /// where `v` is `u + 1`), to `width` RGB pixels. Two pixels at a time: they share their chroma
    /// terms.
    package func convertSubsampledRow(y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>,
                                      chromaStep: Int, width: Int, into out: UnsafeMutablePointer<UInt8>) {
        luma.withUnsafeBufferPointer { luma in
        redV.withUnsafeBufferPointer { redV in
        greenU.withUnsafeBufferPointer { greenU in
        greenV.withUnsafeBufferPointer { greenV in
        blueU.withUnsafeBufferPointer { blueU in
            @inline(__always) func pixel(_ x: Int, red: Int32, green: Int32, blue: Int32) {
                let l = luma[Int(y[x])], o = out + 3 * x
                o[0] = Self.clamp(l &+ red)
                o[1] = Self.clamp(l &+ green)
                o[2] = Self.clamp(l &+ blue)
            }
            var x = 0
            while x + 2 <= width {
                let c = (x >> 1) * chromaStep
                let cu = Int(u[c]), cv = Int(v[c])
                let red = redV[cv], green = greenU[cu] &+ greenV[cv], blue = blueU[cu]
                pixel(x, red: red, green: green, blue: blue)
                pixel(x + 1, red: red, green: green, blue: blue)
                x += 2
            }
            if x < width {  // an odd width's last pixel
                let c = (x >> 1) * chromaStep
                let cu = Int(u[c]), cv = Int(v[c])
                pixel(x, red: redV[cv], green: greenU[cu] &+ greenV[cv], blue: blueU[cu])
            }
        }}}}}
    }

    /// Converts `count` samples of full-resolution (4:4:4) planes to RGB pixels.
    package func convertFull(y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>,
                             count: Int, into out: UnsafeMutablePointer<UInt8>) {
        for i in 0..<count {
            let l = fullLuma[Int(y[i])], cu = Int(u[i]), cv = Int(v[i])
            out[3 * i] = Self.clampFull(l + fullRedV[cv])
            out[3 * i + 1] = Self.clampFull(l + fullGreenV[cv] + fullGreenU[cu])
            out[3 * i + 2] = Self.clampFull(l + fullBlueU[cu])
        }
    }

    /// packuswb: saturate to 0…255.
    @inline(__always) private static func clamp(_ value: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value, 0), 255))
    }

    /// av_clip_uintp2(value, 30) >> 22.
    @inline(__always) private static func clampFull(_ value: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value, 0), (1 << 30) - 1) >> 22)
    }
}
