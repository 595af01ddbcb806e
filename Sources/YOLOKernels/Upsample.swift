extension Tensor {
    /// Nearest-neighbour upsampling by an integer factor, as `nn.Upsample(scale_factor: s, mode: "nearest")`:
    /// output pixel `(y, x)` copies input pixel `(y / s, x / s)`.
    public func upsampledNearest(factor s: Int) -> Tensor {
        precondition(s >= 1, "upsampling factor \(s)")
        let (channels, height, width) = chw
        let outputWidth = width * s
        let output = Tensor.featureMap(channels: channels, height: height * s, width: outputWidth, zeroed: false)
        ComputeThreads.parallelFor(channels) { c in
            let plane = channel(c)
            let result = output.channel(c)
            for y in 0..<height {
                let source = plane + y * width
                let firstRow = result + y * s * outputWidth
                for x in 0..<width {
                    (firstRow + x * s).update(repeating: source[x], count: s)
                }
                for repeatRow in 1..<s {
                    (firstRow + repeatRow * outputWidth).update(from: firstRow, count: outputWidth)
                }
            }
        }
        return output
    }
}
