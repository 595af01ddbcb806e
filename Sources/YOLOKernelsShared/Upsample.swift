import YOLOKernels
import YOLOTensor

/// Nearest-neighbour upsampling by an integer factor `s`, as `nn.Upsample(scale_factor: s, mode:
/// "nearest")`: output pixel `(y, x)` of each of the `channels` planes copies input pixel
/// `(y / s, x / s)`. The output planes, `height · s × width · s`, follow one another at `output`.
/// Each input row is widened once (by twos, eight floats into sixteen at a time), then copied into
/// the other `s − 1` output rows.
func upsampleNearest(_ input: UnsafePointer<Float>, channels: Int, height: Int, width: Int, factor s: Int,
                            into output: UnsafeMutablePointer<Float>) {
    precondition(s >= 1, "upsampling factor \(s)")
    let outputWidth = width * s
    ComputeThreads.parallelFor(channels) { c in
        let plane = input + c * height * width
        let result = output + c * height * s * outputWidth
        for y in 0..<height {
            let source = plane + y * width
            let firstRow = result + y * s * outputWidth
            var x = 0
            if s == 2 {
                while x + 8 <= width {
                    let values = UnsafeRawPointer(source + x).loadUnaligned(as: SIMD8<Float>.self)
                    UnsafeMutableRawPointer(firstRow + 2 * x).storeBytes(of: doubled(values), as: SIMD16<Float>.self)
                    x += 8
                }
            }
            while x < width {
                (firstRow + x * s).update(repeating: source[x], count: s)
                x += 1
            }
            for repeatRow in 1..<s {
                (firstRow + repeatRow * outputWidth).update(from: firstRow, count: outputWidth)
            }
        }
    }
}

/// `(v0, v0, v1, v1, …, v7, v7)`.
@inline(__always)
private func doubled(_ v: SIMD8<Float>) -> SIMD16<Float> {
    SIMD16(v[0], v[0], v[1], v[1], v[2], v[2], v[3], v[3], v[4], v[4], v[5], v[5], v[6], v[6], v[7], v[7])
}
