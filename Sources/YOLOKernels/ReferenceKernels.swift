import FoundationEssentials
import Glibc

/// Plain, obviously correct versions of the kernels, kept beside the fast ones so tests can hold the
/// fast paths against them (as ncnn tests its optimized layers against the plain ones).
package enum ReferenceKernels {
    /// Direct convolution, `[1, C_in, H, W]` → `[1, C_out, OH, OW]`, by the definition:
    /// `out[o, y, x] = bias[o] + Σ_{c, ky, kx} w[o, c, ky, kx] · in[g·C_in/g + c, y·s − p + ky, x·s − p + kx]`.
    package static func convolution(
        _ input: Tensor, geometry g: ConvolutionGeometry, weights: [Float], bias: [Float], activation: Activation
    ) -> Tensor {
        let (channels, height, width) = input.chw
        precondition(channels == g.inputChannels)
        let outputHeight = g.outputSize(height), outputWidth = g.outputSize(width)
        let output = Tensor.featureMap(channels: g.outputChannels, height: outputHeight, width: outputWidth)
        let groupInputs = g.inputChannels / g.groups, groupOutputs = g.outputChannels / g.groups
        let k = g.kernelSize
        for o in 0..<g.outputChannels {
            let group = o / groupOutputs
            for y in 0..<outputHeight {
                for x in 0..<outputWidth {
                    var sum = Double(bias[o])
                    for c in 0..<groupInputs {
                        for ky in 0..<k {
                            for kx in 0..<k {
                                let iy = y * g.stride - g.padding + ky, ix = x * g.stride - g.padding + kx
                                guard iy >= 0, iy < height, ix >= 0, ix < width else { continue }
                                let w = weights[((o * groupInputs + c) * k + ky) * k + kx]
                                sum += Double(w) * Double(input.data[((group * groupInputs + c) * height + iy) * width + ix])
                            }
                        }
                    }
                    var value = Float(sum)
                    if activation == .silu { value = Float(Double(value) / (1 + exp(-Double(value)))) }
                    output.data[(o * outputHeight + y) * outputWidth + x] = value
                }
            }
        }
        return output
    }

    /// Direct max pooling with −∞ padding.
    package static func maxPool(_ input: Tensor, kernelSize k: Int, stride: Int, padding: Int) -> Tensor {
        let (channels, height, width) = input.chw
        let outputHeight = (height + 2 * padding - k) / stride + 1
        let outputWidth = (width + 2 * padding - k) / stride + 1
        let output = Tensor.featureMap(channels: channels, height: outputHeight, width: outputWidth)
        for c in 0..<channels {
            for y in 0..<outputHeight {
                for x in 0..<outputWidth {
                    var best = -Float.infinity
                    for ky in 0..<k {
                        for kx in 0..<k {
                            let iy = y * stride - padding + ky, ix = x * stride - padding + kx
                            guard iy >= 0, iy < height, ix >= 0, ix < width else { continue }
                            best = max(best, input.data[(c * height + iy) * width + ix])
                        }
                    }
                    output.data[(c * outputHeight + y) * outputWidth + x] = best
                }
            }
        }
        return output
    }
}
