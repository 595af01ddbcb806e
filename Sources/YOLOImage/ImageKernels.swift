/// The loops of preprocessing that run over every pixel — the bilinear resize's two passes and the
/// conversion to planar floats — as a table, so that a detector can run them compiled for the
/// CPU's instruction set (the kernel set it chose at load, `KernelSet`) while this module is
/// compiled for any x86-64. Every table gives the same bytes: the arithmetic is integer, and the
/// division by 255 IEEE, lane by lane.
package struct ImageKernels: Sendable {
    /// The name of the instruction set the loops were compiled for.
    package let name: String
    /// `resizeHorizontalPass`: line, channels, offsets, weights0, weights1, twoTapColumns, columns, row.
    package let horizontalPass: @Sendable (UnsafePointer<UInt8>, Int, UnsafePointer<Int>, UnsafePointer<Int32>, UnsafePointer<Int32>,
                                           Int, Int, UnsafeMutablePointer<Int16>) -> Void
    /// `resizeVerticalPass`: row0, row1, b0, b1, count, out.
    package let verticalPass: @Sendable (UnsafePointer<Int16>, UnsafePointer<Int16>, Int16, Int16, Int, UnsafeMutablePointer<UInt8>) -> Void
    /// `convertToPlanarFloats`: canvas, pixels, plane, out.
    package let planarFloats: @Sendable (UnsafePointer<UInt8>, Range<Int>, Int, UnsafeMutablePointer<Float>) -> Void

    package init(
        name: String,
        horizontalPass: @escaping @Sendable (UnsafePointer<UInt8>, Int, UnsafePointer<Int>, UnsafePointer<Int32>, UnsafePointer<Int32>,
                                             Int, Int, UnsafeMutablePointer<Int16>) -> Void,
        verticalPass: @escaping @Sendable (UnsafePointer<Int16>, UnsafePointer<Int16>, Int16, Int16, Int, UnsafeMutablePointer<UInt8>) -> Void,
        planarFloats: @escaping @Sendable (UnsafePointer<UInt8>, Range<Int>, Int, UnsafeMutablePointer<Float>) -> Void
    ) {
        self.name = name
        self.horizontalPass = horizontalPass
        self.verticalPass = verticalPass
        self.planarFloats = planarFloats
    }

    /// The loops as this module is compiled: for any CPU of the architecture.
    package static let portable = ImageKernels(
        name: "portable",
        horizontalPass: { line, channels, offsets, weights0, weights1, twoTapColumns, columns, row in
            resizeHorizontalPass(line, channels: channels, offsets: offsets, weights0: weights0, weights1: weights1,
                                 twoTapColumns: twoTapColumns, columns: columns, into: row)
        },
        verticalPass: { row0, row1, b0, b1, count, out in resizeVerticalPass(row0, row1, b0, b1, count: count, into: out) },
        planarFloats: { s, pixels, plane, out in convertToPlanarFloats(s, pixels: pixels, plane: plane, into: out) })
}
