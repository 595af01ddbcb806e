import YOLOFileSystem

/// Whether a golden file was made from a model's weights, by the SHA-256 `tools/golden.py` records
/// of the file it read: the checkpoint (`yolo11n.pt`), whose checksum the converter records in the
/// weight file, or the weight file itself. A golden of other weights with the same shapes runs and
/// fails on its numbers; this names the cause.
package enum GoldenProvenance: Equatable, Sendable {
    /// The golden was made from the checkpoint this model was converted from.
    case sourceCheckpoint(file: String)
    /// The golden was made from this very weight file.
    case modelFile(file: String)
    /// The golden was made from other weights: `file`, with `sha256`.
    case otherWeights(file: String, sha256: String)
    /// The golden records no checksum of its weights.
    case unrecorded

    /// Compares the golden's checksum with the model's source checkpoint's, and only if they differ
    /// reads the model file to compare with its own.
    /// - Throws: `FileSystemError` if the model file cannot be read.
    package init(golden: TensorFile, model: DetectionModel) throws {
        let weights = golden.metadata["weights"]
        let file = weights?["file"]?.stringValue ?? "?"
        guard let sha256 = weights?["sha256"]?.stringValue?.lowercased() else {
            self = .unrecorded
            return
        }
        if model.metadata["source"]?["sha256"]?.stringValue?.lowercased() == sha256 {
            self = .sourceCheckpoint(file: file)
        } else if try SHA256.hexDigest(ofFileAt: model.file) == sha256 {
            self = .modelFile(file: file)
        } else {
            self = .otherWeights(file: file, sha256: sha256)
        }
    }
}
