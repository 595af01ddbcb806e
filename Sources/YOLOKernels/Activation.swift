/// The point-wise non-linearity applied after a convolution.
package enum Activation: Sendable, Equatable {
    /// None: the convolution's output as it is (`act=False` in Ultralytics' `Conv`).
    case identity
    /// SiLU, `x · sigmoid(x)`: Ultralytics' default activation (`nn.SiLU`).
    case silu
}
