import YOLOKernels

/// This module's copy of preprocessing's loops, as the table a preprocessor calls through.
let compiledImageKernels = ImageKernels(
    horizontalPass: { line, channels, offsets, weights0, weights1, twoTapColumns, columns, row in
        resizeHorizontalPass(line, channels: channels, offsets: offsets, weights0: weights0, weights1: weights1,
                             twoTapColumns: twoTapColumns, columns: columns, into: row)
    },
    verticalPass: { row0, row1, b0, b1, count, out in resizeVerticalPass(row0, row1, b0, b1, count: count, into: out) },
    planarFloats: { s, pixels, plane, out in convertToPlanarFloats(s, pixels: pixels, plane: plane, into: out) })
