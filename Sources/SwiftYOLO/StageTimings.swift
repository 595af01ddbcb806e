/// Where the time of one detection went, stage by stage.
///
/// Encoded (`Codable`) as milliseconds, with the stage keys of the command line's `timing_ms`
/// (which adds their `total`): `{"decode": 2.9, "preprocess": 1.7, "inference": 61.0, "postprocess": 0.4}`.
public struct StageTimings: Sendable, Equatable, Codable {
    /// Reading and decoding the image file (zero for pixels handed over in memory).
    public var decode: Duration = .zero
    /// Letterbox resize and conversion to the model's input tensor.
    public var preprocess: Duration = .zero
    /// The network's forward pass.
    public var inference: Duration = .zero
    /// Decoding the head output, NMS and mapping boxes back to the image.
    public var postprocess: Duration = .zero

    public init() {}

    /// The sum of the stages.
    public var total: Duration { decode + preprocess + inference + postprocess }

    private enum CodingKeys: String, CodingKey { case decode, preprocess, inference, postprocess }

    /// The longest stage a decoded value may give: 9 × 10¹² ms (285 years), so that its nanoseconds
    /// fit in an `Int64` with room to spare, and encoding it again gives a value this accepts.
    static let maximumMilliseconds = 9e12

    /// Decodes the stages, refusing a value that is negative, not finite or over 285 years.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func stage(_ key: CodingKeys) throws -> Duration {
            let milliseconds = try container.decode(Double.self, forKey: key)
            guard milliseconds.isFinite, milliseconds >= 0, milliseconds <= Self.maximumMilliseconds else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription: "\(milliseconds) is not a duration in milliseconds (0…\(Self.maximumMilliseconds))")
            }
            return .nanoseconds(Int64((milliseconds * 1e6).rounded()))
        }
        decode = try stage(.decode)
        preprocess = try stage(.preprocess)
        inference = try stage(.inference)
        postprocess = try stage(.postprocess)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(decode.milliseconds, forKey: .decode)
        try container.encode(preprocess.milliseconds, forKey: .preprocess)
        try container.encode(inference.milliseconds, forKey: .inference)
        try container.encode(postprocess.milliseconds, forKey: .postprocess)
    }
}
