/// The horizontal pass of a bilinear resize, laid out per output sample (column × channel) so that
/// a kernel can take any run of samples at once, whatever the channel count: sample `j` is
/// `(line[offsets[j]] * weights0[j] + line[offsets[j] + channels] * weights1[j]) >> 4`. The
/// samples from `twoTapSamples` on belong to columns clamped to the last source column, whose right
/// tap has weight 0 and may lie past the row: they are never read there. A kernel may use
/// `scratch` (`samples` words) as it likes, so one value serves one thread at a time.
package struct HorizontalTaps: @unchecked Sendable {
    /// Byte offset of each sample's left tap in the source row.
    package let offsets: UnsafePointer<Int32>
    /// The weights, at most 2048 (OpenCV's 11-bit fixed point).
    package let weights0: UnsafePointer<Int16>
    package let weights1: UnsafePointer<Int16>
    /// Samples per pixel: the right tap is this many bytes after the left one.
    package let channels: Int
    /// The samples before this one read both taps.
    package let twoTapSamples: Int
    /// Samples in a destination row.
    package let samples: Int
    /// Room for one word per sample.
    package let scratch: UnsafeMutablePointer<UInt32>

    package init(offsets: UnsafePointer<Int32>, weights0: UnsafePointer<Int16>, weights1: UnsafePointer<Int16>,
                 channels: Int, twoTapSamples: Int, samples: Int, scratch: UnsafeMutablePointer<UInt32>) {
        precondition(0 <= twoTapSamples && twoTapSamples <= samples && channels > 0)
        self.offsets = offsets
        self.weights0 = weights0
        self.weights1 = weights1
        self.channels = channels
        self.twoTapSamples = twoTapSamples
        self.samples = samples
        self.scratch = scratch
    }
}
