import FoundationEssentials
import Glibc

/// Why a model cannot be built from a weights file whose tensors are themselves sound.
package enum ModelError: Error, Equatable, CustomStringConvertible {
    /// The metadata lacks a field, or a field has the wrong form.
    case invalidDescription(file: String, reason: String)
    /// The yaml names a module this engine does not implement.
    case unsupportedModule(file: String, layer: Int, module: String)
    /// A layer's arguments or connections do not make sense.
    case invalidLayer(file: String, layer: Int, reason: String)
    /// An input whose size the network cannot take.
    case invalidInput(reason: String)
    /// End-to-end inference asked of a model whose head has no one-to-one branches.
    case noEndToEndHead(file: String)

    package var description: String {
        switch self {
        case let .invalidDescription(file, reason): "\(file): invalid model description: \(reason)"
        case let .unsupportedModule(file, layer, module): "\(file): layer \(layer): module '\(module)' is not supported (SwiftYOLO runs YOLO11 detection models)"
        case let .invalidLayer(file, layer, reason): "\(file): layer \(layer): \(reason)"
        case let .invalidInput(reason): "invalid input: \(reason)"
        case let .noEndToEndHead(file): "\(file): the model has no end-to-end (one-to-one) head; run it without --end2end"
        }
    }
}

extension ModelError: LocalizedError {
    /// The same one-line message as `description`: the file or input, and what is wrong with it.
    package var errorDescription: String? { description }
}
