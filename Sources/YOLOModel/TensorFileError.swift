import FoundationEssentials
import Glibc

/// Why a tensor file (weights or golden tensors) cannot be used. Every case names the file, and the
/// tensor where one is at fault.
package enum TensorFileError: Error, Equatable, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case notATensorFile(file: String)
    case unsupportedVersion(file: String, version: UInt32)
    case corruptHeader(file: String, reason: String)
    case corruptMetadata(file: String, reason: String)
    case corruptTensorTable(file: String, reason: String)
    case corruptTensor(file: String, tensor: String, reason: String)
    case duplicateTensor(file: String, tensor: String)
    case missingTensor(file: String, tensor: String)
    case shapeMismatch(file: String, tensor: String, expected: [Int], actual: [Int])
    case unusedTensors(file: String, tensors: [String])
    case wrongKind(file: String, expected: String, actual: String)
    /// The file asks for more than the reader's configured limit (`TensorFile.Limits`); nothing was allocated for it.
    case limitExceeded(file: String, what: String, limit: String)

    package var description: String {
        switch self {
        case let .unreadable(file, reason): "\(file): cannot read: \(reason)"
        case let .notATensorFile(file): "\(file): not a SwiftYOLO tensor file (bad magic; convert a .pt with tools/convert.py)"
        case let .unsupportedVersion(file, version): "\(file): format version \(version) is not supported (this build reads version \(TensorFile.formatVersion))"
        case let .corruptHeader(file, reason): "\(file): corrupt header: \(reason)"
        case let .corruptMetadata(file, reason): "\(file): corrupt metadata: \(reason)"
        case let .corruptTensorTable(file, reason): "\(file): corrupt tensor table: \(reason)"
        case let .corruptTensor(file, tensor, reason): "\(file): tensor '\(tensor)': \(reason)"
        case let .duplicateTensor(file, tensor): "\(file): tensor '\(tensor)' appears twice"
        case let .missingTensor(file, tensor): "\(file): tensor '\(tensor)' is missing"
        case let .shapeMismatch(file, tensor, expected, actual): "\(file): tensor '\(tensor)' has shape \(actual), the model needs \(expected)"
        case let .unusedTensors(file, tensors):
            "\(file): \(tensors.count) tensor(s) not used by the model described in the file: \(tensors.prefix(5).joined(separator: ", "))\(tensors.count > 5 ? ", …" : "")"
        case let .wrongKind(file, expected, actual): "\(file): this is a '\(actual)' file, expected '\(expected)'"
        case let .limitExceeded(file, what, limit): "\(file): \(what) exceeds the limit of \(limit)"
        }
    }
}

extension TensorFileError: LocalizedError {
    /// The same one-line message as `description`: the file or input, and what is wrong with it.
    package var errorDescription: String? { description }
}
