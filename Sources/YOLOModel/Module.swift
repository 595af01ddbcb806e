import YOLOKernels

/// A block of the network with one input feature map and one output, in inference form.
package protocol Module: Sendable {
    /// Runs the block on a `[1, C, H, W]` feature map.
    func callAsFunction(_ x: Tensor) -> Tensor
    /// Runs the block on a feature map that may not be written out, and may leave its own output so
    /// (`FeatureMap`): by default, `self(x.tensor)`.
    func callAsFunction(_ x: FeatureMap) -> FeatureMap
    /// Parameters after BatchNorm folding (weights and biases of the convolutions it runs).
    var parameterCount: Int { get }
    /// The output's `(height, width)` for an input of `size`.
    func outputSize(_ size: (Int, Int)) -> (Int, Int)
    /// Floating-point operations (a multiply-add counts two) for an input of `size`.
    func flops(_ size: (Int, Int)) -> Int
    /// Bytes of scratch beyond feature maps that the block holds at once for an input of `size` with
    /// `running` threads at work on it (the kernels' per-block buffers, as they cut the work for
    /// `ComputeThreads.count`; the attention's score matrices, which grow with the square of the
    /// positions).
    func scratchBytes(_ size: (Int, Int), running: Int) -> Int
}

extension Module {
    package func callAsFunction(_ x: FeatureMap) -> FeatureMap { FeatureMap(self(x.tensor)) }

    /// Most blocks keep the spatial size.
    package func outputSize(_ size: (Int, Int)) -> (Int, Int) { size }

    /// Most blocks need no scratch that grows faster than their feature maps.
    package func scratchBytes(_ size: (Int, Int), running: Int) -> Int { 0 }
}

/// Modules run one after another, as `nn.Sequential`.
struct Sequential: Module {
    let modules: [any Module]

    func callAsFunction(_ x: Tensor) -> Tensor {
        modules.reduce(x) { output, module in module(output) }
    }

    var parameterCount: Int { modules.reduce(0) { $0 + $1.parameterCount } }

    func outputSize(_ size: (Int, Int)) -> (Int, Int) {
        modules.reduce(size) { size, module in module.outputSize(size) }
    }

    func scratchBytes(_ size: (Int, Int), running: Int) -> Int {
        var size = size, largest = 0
        for module in modules {
            largest = max(largest, module.scratchBytes(size, running: running))
            size = module.outputSize(size)
        }
        return largest
    }

    func flops(_ size: (Int, Int)) -> Int {
        var size = size, total = 0
        for module in modules {
            total += module.flops(size)
            size = module.outputSize(size)
        }
        return total
    }
}
