import YOLOKernels
import YOLOTensor

/// A `[1, C, H, W]` feature map as the network hands it from layer to layer: one or more tensors
/// side by side along the channels (`torch.cat(xs, 1)`), each read at `upsampling` times its size
/// (`nn.Upsample(mode: "nearest")`), not yet written out as one tensor.
///
/// YOLO11's neck upsamples a map only to concatenate it with a skip connection and feed the pair
/// to a 1×1 convolution (`C3k2.cv1`). That convolution reads the parts where they lie and multiplies
/// an upsampled part at its own, smaller size (see `Convolution`), so neither the upsampling nor
/// the concatenation is ever written. Anything else asks for `tensor`.
package struct FeatureMap {
    /// One part: `tensor`, every pixel repeated `upsampling × upsampling` times.
    package struct Part {
        package let tensor: Tensor
        package let upsampling: Int

        package var channels: Int { tensor.chw.channels }
    }

    package let parts: [Part]

    /// A map of one tensor as it is (of any shape: the network's head output is one too).
    package init(_ tensor: Tensor) {
        parts = [Part(tensor: tensor, upsampling: 1)]
    }

    package var channels: Int { parts.reduce(0) { $0 + $1.channels } }
    package var height: Int { parts[0].tensor.chw.height * parts[0].upsampling }
    package var width: Int { parts[0].tensor.chw.width * parts[0].upsampling }

    /// The maps side by side along the channels; they must have the same height and width.
    package init(concatenating maps: [FeatureMap]) {
        precondition(!maps.isEmpty, "nothing to concatenate")
        let (height, width) = (maps[0].height, maps[0].width)
        precondition(maps.allSatisfy { $0.height == height && $0.width == width },
                     "concatenating feature maps of different sizes: \(maps.map { [$0.channels, $0.height, $0.width] })")
        parts = maps.flatMap(\.parts)
    }

    /// The tensors side by side along the channels; they must have the same height and width.
    package init(concatenating tensors: [Tensor]) {
        self.init(concatenating: tensors.map(FeatureMap.init))
    }

    private init(parts: [Part]) {
        self.parts = parts
    }

    /// This map upsampled by `factor` (nearest neighbour).
    package func upsampled(factor: Int) -> FeatureMap {
        precondition(factor >= 1, "upsampling factor \(factor)")
        return FeatureMap(parts: parts.map { Part(tensor: $0.tensor, upsampling: $0.upsampling * factor) })
    }

    /// The map as one tensor: the part itself when there is one, read at its size; otherwise a new
    /// tensor with each part upsampled or copied into its channels.
    package var tensor: Tensor {
        if parts.count == 1 && parts[0].upsampling == 1 { return parts[0].tensor }
        let (height, width) = (self.height, self.width)
        let output = Tensor.featureMap(channels: channels, height: height, width: width, zeroed: false)
        let planeSize = height * width
        var channel = 0
        for part in parts {
            let (partChannels, partHeight, partWidth) = part.tensor.chw
            let destination = output.data + channel * planeSize
            if part.upsampling == 1 {
                let source = UnsafePointer(part.tensor.data)
                ComputeThreads.parallelFor(partChannels) { c in
                    (destination + c * planeSize).update(from: source + c * planeSize, count: planeSize)
                }
            } else {
                KernelSet.active.upsampleNearest(part.tensor.data, channels: partChannels, height: partHeight, width: partWidth,
                                factor: part.upsampling, into: destination)
            }
            channel += partChannels
        }
        return output
    }
}

extension Tensor {
    /// Nearest-neighbour upsampling by an integer factor, as `nn.Upsample(scale_factor: s, mode: "nearest")`:
    /// output pixel `(y, x)` copies input pixel `(y / s, x / s)`.
    package func upsampledNearest(factor s: Int) -> Tensor {
        FeatureMap(self).upsampled(factor: s).tensor
    }

    /// Concatenates `[1, C_i, H, W]` feature maps along the channel axis, as `torch.cat(xs, 1)`.
    package static func concatenatingChannels(_ parts: [Tensor]) -> Tensor {
        FeatureMap(concatenating: parts).tensor
    }
}
