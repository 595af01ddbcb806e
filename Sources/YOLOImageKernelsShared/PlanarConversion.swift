/// Interleaved RGB bytes to planar floats `x / 255`, the model input's layout, for the pixels
/// `pixels` of a canvas at `s` (`plane` pixels): red at `out`, green `plane` floats on, blue
/// `2 · plane` on. Compiled into `YOLOImage` for any CPU and into each kernel set for its
/// instruction set (`ImageKernels`).
///
/// Eight pixels at a time: the bytes split by channel, then one vector division per channel (IEEE
/// division, lane by lane: the same floats as the scalar `Float(x) / 255`, whatever the vector width).
func convertToPlanarFloats(_ s: UnsafePointer<UInt8>, pixels: Range<Int>, plane: Int, into out: UnsafeMutablePointer<Float>) {
    let red = UnsafeMutableRawPointer(out), green = UnsafeMutableRawPointer(out + plane)
    let blue = UnsafeMutableRawPointer(out + 2 * plane)
    typealias Lanes = SIMD8<Int32>
    let divisor = SIMD8<Float>(repeating: 255)
    var i = pixels.lowerBound
    while i + Lanes.scalarCount <= pixels.upperBound {
        let p = s + 3 * i
        var r = Lanes(), g = Lanes(), b = Lanes()
        for k in 0..<Lanes.scalarCount {
            r[k] = Int32(p[3 * k])
            g[k] = Int32(p[3 * k + 1])
            b[k] = Int32(p[3 * k + 2])
        }
        red.storeBytes(of: SIMD8<Float>(r) / divisor, toByteOffset: 4 * i, as: SIMD8<Float>.self)
        green.storeBytes(of: SIMD8<Float>(g) / divisor, toByteOffset: 4 * i, as: SIMD8<Float>.self)
        blue.storeBytes(of: SIMD8<Float>(b) / divisor, toByteOffset: 4 * i, as: SIMD8<Float>.self)
        i += Lanes.scalarCount
    }
    while i < pixels.upperBound {  // [H*W*3] HWC -> [3, H*W] CHW
        out[i] = Float(s[3 * i]) / 255
        out[plane + i] = Float(s[3 * i + 1]) / 255
        out[2 * plane + i] = Float(s[3 * i + 2]) / 255
        i += 1
    }
}
