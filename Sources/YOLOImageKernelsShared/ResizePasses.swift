import YOLOKernels

/// The passes of `BilinearResize` (OpenCV's 8-bit `INTER_LINEAR` in fixed point, and its INTER_AREA
/// for an exact 2× shrink), compiled into `YOLOImage` for any CPU and into each kernel set for its
/// instruction set (`ImageKernels`): the same integer arithmetic everywhere, so every build gives
/// the same bytes.

/// The horizontal pass of one source row `line` (see `HorizontalTaps`), kept as `sum >> 4`.
///
/// With three channels the right tap is the fourth byte from the left one, so one unaligned 32-bit
/// load holds both. The loads go first, one per sample, into a row of words; then the arithmetic
/// runs over whole rows, which the compiler vectorizes. (Loads and arithmetic in one loop stay
/// scalar, and a vector gather of the words is slower than the scalar loads on the CPUs measured.)
/// Other channel counts load the two taps apart.
@inline(never)  // on its own, the loop keeps its pointers in registers
func resizeHorizontalPass(_ line: UnsafePointer<UInt8>, taps: HorizontalTaps, into row: UnsafeMutablePointer<Int16>) {
    let offsets = taps.offsets, weights0 = taps.weights0, weights1 = taps.weights1
    let raw = UnsafeRawPointer(line)
    if taps.channels == 3 {
        let words = taps.scratch
        for j in 0..<taps.twoTapSamples {
            words[j] = raw.loadUnaligned(fromByteOffset: Int(offsets[j]), as: UInt32.self)
        }
        for j in 0..<taps.twoTapSamples {
            let both = UInt32(littleEndian: words[j])
            let left = Int16(truncatingIfNeeded: both & 0xFF), right = Int16(truncatingIfNeeded: both &>> 24)
            row[j] = Int16(truncatingIfNeeded: (Int32(left) &* Int32(weights0[j]) &+ Int32(right) &* Int32(weights1[j])) &>> 4)
        }
    } else {
        let cn = taps.channels
        for j in 0..<taps.twoTapSamples {
            let p = line + Int(offsets[j])
            row[j] = Int16(truncatingIfNeeded: (Int32(p[0]) &* Int32(weights0[j]) &+ Int32(p[cn]) &* Int32(weights1[j])) &>> 4)
        }
    }
    for j in taps.twoTapSamples..<taps.samples {  // weights1[j] == 0, and the right tap may be past the row
        row[j] = Int16(truncatingIfNeeded: (Int32(line[Int(offsets[j])]) &* Int32(weights0[j])) &>> 4)
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

/// One destination row of OpenCV's INTER_AREA for an exact 2× shrink: `(a + b + c + d + 2) >> 2`
/// over each 2×2 block of the source rows `top` and `bottom` (`2 · columns` pixels of `cn` samples
/// each), as the two rows' sums in `sums` (`2 · columns · cn` of them; a loop the compiler
/// vectorizes) and then the sums of neighbouring pairs.
func halvingPass(_ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>, channels cn: Int, columns: Int,
                 sums: UnsafeMutablePointer<UInt16>, into out: UnsafeMutablePointer<UInt8>) {
    for i in 0..<2 * columns * cn { sums[i] = UInt16(top[i]) &+ UInt16(bottom[i]) }  // at most 2 · 255
    @inline(__always) func pairs(_ cn: Int) {
        var pair = UnsafePointer(sums), out = out
        for _ in 0..<columns {
            for k in 0..<cn { out[k] = UInt8(truncatingIfNeeded: (pair[k] &+ pair[k + cn] &+ 2) &>> 2) }
            pair += 2 * cn
            out += cn
        }
    }
    if cn == 3 { pairs(3) } else { pairs(cn) }
}
