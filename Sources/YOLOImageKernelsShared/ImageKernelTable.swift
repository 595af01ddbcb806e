import YOLOKernels

/// This module's copy of preprocessing's loops, as the table a preprocessor calls through.
let compiledImageKernels = ImageKernels(
    horizontalPass: { line, taps, row in resizeHorizontalPass(line, taps: taps, into: row) },
    verticalPass: { row0, row1, b0, b1, count, out in resizeVerticalPass(row0, row1, b0, b1, count: count, into: out) },
    halvingPass: { top, bottom, channels, columns, sums, out in
        halvingPass(top, bottom, channels: channels, columns: columns, sums: sums, into: out)
    },
    planarFloats: { s, pixels, plane, out in convertToPlanarFloats(s, pixels: pixels, plane: plane, into: out) })
