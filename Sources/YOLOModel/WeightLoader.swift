import YOLOKernels

/// Hands a model's blocks their tensors from a weights file by name, checks each shape against the
/// one the block needs, and remembers what was taken so that tensors left unused can be reported.
final class WeightLoader {
    let file: TensorFile
    let batchNormEpsilon: Float
    /// Activation class names by module path (`"model.9.cv1": "SiLU"`), as the checkpoint's modules had them.
    let activations: [String: String]
    private(set) var taken: Set<String> = []

    init(file: TensorFile) throws {
        self.file = file
        guard let epsilon = file.metadata["batchnorm_eps"]?.doubleValue, epsilon > 0, epsilon < 1 else {
            throw ModelError.invalidDescription(file: file.path, reason: "'batchnorm_eps' is missing or out of range")
        }
        self.batchNormEpsilon = Float(epsilon)
        guard case let .object(members)? = file.metadata["activations"] else {
            throw ModelError.invalidDescription(file: file.path, reason: "'activations' (module path → activation) is missing; reconvert with tools/convert.py")
        }
        var activations: [String: String] = [:]
        for (path, name) in members {
            guard let name = name.stringValue else {
                throw ModelError.invalidDescription(file: file.path, reason: "activation of '\(path)' is not a string")
            }
            activations[path] = name
        }
        self.activations = activations
    }

    /// The tensor `name`, which must have `shape` and finite values: a NaN or an infinity is damage
    /// (a file overwritten with 0xFF bytes gave no detections at all, and exit 0), which the file's
    /// structure alone cannot show. (The load reads every weight anyway, to fold and pack it.)
    func tensor(_ name: String, shape: [Int]) throws -> Tensor {
        guard let entry = file.entry(named: name) else { throw TensorFileError.missingTensor(file: file.path, tensor: name) }
        guard entry.shape == shape else {
            throw TensorFileError.shapeMismatch(file: file.path, tensor: name, expected: shape, actual: entry.shape)
        }
        taken.insert(name)
        let tensor = file.tensor(entry)
        if let index = tensor.firstNonFiniteIndex() {
            let value = tensor.data[index].isNaN ? "NaN" : tensor.data[index] < 0 ? "-infinity" : "infinity"
            throw TensorFileError.corruptTensor(file: file.path, tensor: name, reason: "element \(index) is \(value); weights are finite numbers")
        }
        return tensor
    }

    /// Throws if any tensor of the file was not taken by the model.
    func requireAllTaken() throws {
        let unused = file.entries.map(\.name).filter { !taken.contains($0) }
        guard unused.isEmpty else { throw TensorFileError.unusedTensors(file: file.path, tensors: unused) }
    }
}

/// A view of a `WeightLoader` under a name prefix, so that a block asks for `"cv1.conv.weight"` and
/// gets `model.2.m.0.cv1.conv.weight`: checkpoint names and code names line up.
struct WeightScope {
    let loader: WeightLoader
    let prefix: String

    /// The scope of child module `name` (`scope.child("cv1")`, `scope.child(0)`).
    func child(_ name: String) -> WeightScope { WeightScope(loader: loader, prefix: prefix + "." + name) }
    func child(_ index: Int) -> WeightScope { child(String(index)) }

    func tensor(_ name: String, shape: [Int]) throws -> Tensor {
        try loader.tensor(prefix + "." + name, shape: shape)
    }

    /// The activation of the `Conv` module at this scope, as the checkpoint recorded it.
    func activation() throws -> Activation {
        switch loader.activations[prefix] {
        case "SiLU": return .silu
        case "Identity": return .identity
        case nil: throw ModelError.invalidDescription(file: loader.file.path, reason: "no activation recorded for module '\(prefix)'")
        case let other?: throw ModelError.invalidDescription(file: loader.file.path, reason: "module '\(prefix)' uses activation '\(other)', which is not supported")
        }
    }
}
