/// The loops of preprocessing that run over every pixel — the bilinear resize's two passes, the
/// exact 2× shrink and the conversion to planar floats — as a table, so that a detector can run
/// them compiled for the CPU's instruction set (each kernel set's `imageKernels`) while `YOLOImage`
/// is compiled for any x86-64 (its `portable` table). Every table gives the same bytes: the
/// arithmetic is integer, and the division by 255 IEEE, lane by lane. The loops are written once, in
/// `Sources/YOLOImageKernelsShared`, which also makes the table (`compiledImageKernels`).
package struct ImageKernels: Sendable {
    /// `resizeHorizontalPass`: line, taps, row.
    package typealias HorizontalPass = @Sendable (UnsafePointer<UInt8>, HorizontalTaps, UnsafeMutablePointer<Int16>) -> Void
    /// `resizeVerticalPass`: row0, row1, b0, b1, count, out.
    package typealias VerticalPass = @Sendable (UnsafePointer<Int16>, UnsafePointer<Int16>, Int16, Int16, Int, UnsafeMutablePointer<UInt8>) -> Void
    /// `halvingPass`: top, bottom, channels, columns, sums, out.
    package typealias HalvingPass = @Sendable (UnsafePointer<UInt8>, UnsafePointer<UInt8>, Int, Int, UnsafeMutablePointer<UInt16>,
                                               UnsafeMutablePointer<UInt8>) -> Void
    /// `convertToPlanarFloats`: canvas, pixels, plane, out.
    package typealias PlanarFloats = @Sendable (UnsafePointer<UInt8>, Range<Int>, Int, UnsafeMutablePointer<Float>) -> Void

    package let horizontalPass: HorizontalPass
    package let verticalPass: VerticalPass
    package let halvingPass: HalvingPass
    package let planarFloats: PlanarFloats

    package init(horizontalPass: @escaping HorizontalPass, verticalPass: @escaping VerticalPass, halvingPass: @escaping HalvingPass,
                 planarFloats: @escaping PlanarFloats) {
        self.horizontalPass = horizontalPass
        self.verticalPass = verticalPass
        self.halvingPass = halvingPass
        self.planarFloats = planarFloats
    }
}
