/// The two passes of `BilinearResize` (OpenCV's 8-bit `INTER_LINEAR` in fixed point), compiled into
/// `YOLOImage` for any CPU and into each kernel set for its instruction set (`ImageKernels`): the
/// same integer arithmetic everywhere, so every build gives the same bytes.

/// The horizontal pass of one source row `line`: per destination column `c` and channel `k`,
/// `(line[o + k] * a0 + line[o + cn + k] * a1) >> 4` with `o = offsets[c]`. The first
/// `twoTapColumns` columns read both taps unconditionally; the rest skip a right tap of weight 0.
@inline(never)  // on its own, the loop keeps its pointers in registers
func resizeHorizontalPass(_ line: UnsafePointer<UInt8>, channels cn: Int, offsets: UnsafePointer<Int>,
                          weights0: UnsafePointer<Int32>, weights1: UnsafePointer<Int32>,
                          twoTapColumns: Int, columns: Int, into row: UnsafeMutablePointer<Int16>) {
    var o = row
    if cn == 3 {
        for column in 0..<twoTapColumns {
            let p = line + offsets[column], a0 = weights0[column], a1 = weights1[column]
            o[0] = Int16(truncatingIfNeeded: (Int32(p[0]) &* a0 &+ Int32(p[3]) &* a1) &>> 4)
            o[1] = Int16(truncatingIfNeeded: (Int32(p[1]) &* a0 &+ Int32(p[4]) &* a1) &>> 4)
            o[2] = Int16(truncatingIfNeeded: (Int32(p[2]) &* a0 &+ Int32(p[5]) &* a1) &>> 4)
            o += 3
        }
    } else {
        for column in 0..<twoTapColumns {
            let p = line + offsets[column], a0 = weights0[column], a1 = weights1[column]
            for k in 0..<cn {
                o[k] = Int16(truncatingIfNeeded: (Int32(p[k]) &* a0 &+ Int32(p[cn + k]) &* a1) &>> 4)
            }
            o += cn
        }
    }
    for column in twoTapColumns..<columns {  // a1 == 0 at clamped columns, where p + cn may be past the row
        let p = line + offsets[column], a0 = weights0[column], a1 = weights1[column]
        for k in 0..<cn {
            let right = a1 == 0 ? 0 : Int32(p[cn + k]) &* a1
            o[k] = Int16(truncatingIfNeeded: (Int32(p[k]) &* a0 &+ right) &>> 4)
        }
        o += cn
    }
}

/// The vertical pass, OpenCV's `VResizeLinearVec_32s8u`: `((b0 * x0) >> 16 + (b1 * x1) >> 16 + 2) >> 2`
/// saturated to 8 bits, where x0, x1 are the two rows' `sum >> 4` and b0, b1 ≤ 2048. Written as a
/// plain loop over 16-bit operands, which the compiler vectorizes (as 16-bit multiply-high) to the
/// width of the instruction set it compiles for.
func resizeVerticalPass(_ row0: UnsafePointer<Int16>, _ row1: UnsafePointer<Int16>, _ b0: Int16, _ b1: Int16,
                        count: Int, into out: UnsafeMutablePointer<UInt8>) {
    for i in 0..<count {
        let v = ((Int32(b0) &* Int32(row0[i])) &>> 16) &+ ((Int32(b1) &* Int32(row1[i])) &>> 16) &+ 2
        out[i] = UInt8(clamping: v &>> 2)
    }
}
