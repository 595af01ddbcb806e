/// One top-level layer of the network (`model.<index>`), built from its yaml row.
package struct Layer: Sendable {
    /// What the layer computes from its inputs.
    enum Operation: Sendable {
        case module(any Module)
        case concat
        /// The model's head: Detect, Segment or Pose.
        case head(any DetectionHead)
    }

    package let index: Int
    /// Indices of the layers whose outputs feed this one (`-1`: the previous layer).
    package let from: [Int]
    package let repeats: Int
    /// The module's name as the yaml spells it (`Conv`, `C3k2`, `nn.Upsample`, …).
    package let module: String
    /// The module's constructor arguments after Ultralytics' `parse_model` resolved them (`[16, 32, 3, 2]`).
    package let arguments: [JSONValue]
    package let outputChannels: Int
    /// Parameters as stored in the checkpoint (convolution weights, BatchNorm weights and biases).
    package let storedParameterCount: Int
    /// Parameters once BatchNorm is folded into the convolutions.
    package let foldedParameterCount: Int
    let operation: Operation

    /// `from` as Ultralytics' model summary prints it: `-1`, or `[-1, 6]` for a list.
    package var fromDescription: String {
        from.count == 1 ? String(from[0]) : "[" + from.map(String.init).joined(separator: ", ") + "]"
    }

    /// The arguments as Ultralytics' model summary prints them: `[3, 16, 3, 2]`.
    package var argumentsDescription: String {
        JSONValue.array(arguments).description
    }
}
