/// Runs a model on the input stored in a golden file (tensors dumped from Ultralytics/PyTorch by
/// `tools/golden.py`) and compares every top-level layer's output with PyTorch's.
///
/// The bound that decides pass or fail is the head output's: boxes within `boxTolerance` pixels and
/// class scores within `scoreTolerance`. Intermediate layers must stay within `layerTolerance` of
/// their own scale (max-abs error ÷ max |value|), so a drift is pinned to the layer that causes it.
package struct GoldenVerification: Sendable {
    /// The largest acceptable box error in the head output, in input pixels.
    package static let boxTolerance: Float = 0.01
    /// The largest acceptable class-score error in the head output.
    package static let scoreTolerance: Float = 1e-4
    /// The largest acceptable error of an intermediate layer, relative to its largest magnitude.
    package static let layerTolerance: Float = 1e-4

    package struct Row: Sendable {
        /// `model.7`, or `model.23 boxes` / `model.23 scores` for the two parts of the head.
        package let name: String
        package let shape: [Int]
        package let difference: TensorDifference
        /// The bound applied, in words (`"abs ≤ 0.01 px"`).
        package let bound: String
        package let passed: Bool
    }

    package let rows: [Row]
    package var passed: Bool { rows.allSatisfy(\.passed) }

    /// - Parameter memoryLimit: the most bytes the input's activations may take (its memory plan),
    ///   checked before the pass; `nil` for none.
    /// - Throws: if the golden file is not one, its input does not fit the model or needs more than
    ///   `memoryLimit`, or it lacks a layer or has one of another shape (all checked before the pass).
    package init(model: DetectionModel, golden: TensorFile, memoryLimit: Int? = nil) throws {
        try golden.requireKind("golden")
        let input = try golden.tensor(named: "input")
        do {
            try model.validate(input)
        } catch let ModelError.invalidInput(reason) {
            throw TensorFileError.corruptTensor(file: golden.path, tensor: "input", reason: reason)
        }
        let (height, width) = (input.shape[2], input.shape[3])
        if let shortfall = model.activationMemoryShortfall(height: height, width: width, limit: memoryLimit) {
            let limit = switch shortfall.bound {
            case let .limit(bytes): "\(bytes) bytes"
            case .addressSpace: "the address space this process could reserve (ulimit -v)"
            }
            throw TensorFileError.limitExceeded(file: golden.path, what: "tensor 'input' \(input.shape) needs \(shortfall.plannedBytes) bytes of activations, which",
                                                limit: limit)
        }
        for (layer, shape) in zip(model.layers.dropLast(), model.outputShapes(height: height, width: width)) {
            let name = "model.\(layer.index)"
            guard let entry = golden.entry(named: name) else { throw TensorFileError.missingTensor(file: golden.path, tensor: name) }
            guard entry.shape == shape else {
                throw TensorFileError.shapeMismatch(file: golden.path, tensor: name, expected: shape, actual: entry.shape)
            }
        }
        var outputs: [Int: Tensor] = [:]
        let headOutput = try model.run(input) { index, output in outputs[index] = output.tensor }
        let head = headOutput.predictions
        var rows: [Row] = []
        for layer in model.layers.dropLast() {
            let name = "model.\(layer.index)"
            guard let actual = outputs[layer.index] else {
                throw ModelError.invalidLayer(file: model.file, layer: layer.index, reason: "its output was not observed")
            }
            // The golden's shape was checked against the model's before the pass.
            rows.append(Self.relativeRow(name, actual: actual, expected: try golden.tensor(named: name)))
        }
        let headName = "model.\(model.layers.count - 1)"
        let expected = try golden.tensor(named: headName)
        guard head.shape == expected.shape else {
            throw TensorFileError.shapeMismatch(file: golden.path, tensor: headName, expected: head.shape, actual: expected.shape)
        }
        let anchors = head.shape[2]
        let boxCount = 4 * anchors
        let boxes = TensorDifference(
            actual: UnsafeBufferPointer(rebasing: head.buffer[0..<boxCount]),
            expected: UnsafeBufferPointer(rebasing: expected.buffer[0..<boxCount])) { _ in Self.boxTolerance }
        let classCount = model.classCount, scoreEnd = (4 + classCount) * anchors
        let scores = TensorDifference(
            actual: UnsafeBufferPointer(rebasing: head.buffer[boxCount..<scoreEnd]),
            expected: UnsafeBufferPointer(rebasing: expected.buffer[boxCount..<scoreEnd])) { _ in Self.scoreTolerance }
        rows.append(Row(name: headName + " boxes", shape: [1, 4, anchors], difference: boxes,
                        bound: "abs ≤ \(Self.boxTolerance) px", passed: boxes.isWithinTolerance))
        rows.append(Row(name: headName + " scores", shape: [1, classCount, anchors], difference: scores,
                        bound: "abs ≤ \(Self.scoreTolerance)", passed: scores.isWithinTolerance))
        rows += try Self.extraRows(model.headExtras, head: head, expected: expected, from: 4 + classCount, headName: headName)
        if let prototypes = headOutput.prototypes {
            let name = headName + ".proto"
            let expected = try golden.tensor(named: name)
            guard prototypes.shape == expected.shape else {
                throw TensorFileError.shapeMismatch(file: golden.path, tensor: name, expected: prototypes.shape, actual: expected.shape)
            }
            rows.append(Self.relativeRow(name, actual: prototypes, expected: expected))
        }
        rows += try Self.headMapRows(model: model, outputs: outputs, golden: golden, headName: headName)
        self.rows = rows
    }

    /// A row bound relative to the expected tensor's scale (`layerTolerance`), with its first bad index.
    private static func relativeRow(_ name: String, actual: Tensor, expected: Tensor) -> Row {
        let difference = TensorDifference(actual: actual, expected: expected, relativeTolerance: layerTolerance)
        return Row(name: name, shape: expected.shape, difference: difference, bound: "relative ≤ \(layerTolerance)",
                   passed: difference.isWithinTolerance)
    }

    /// The head's per-level maps before decoding (`<head>.raw.<i>`: box and class logits, then a
    /// segmentation head's mask coefficients or a pose head's keypoints; relative ≤ `layerTolerance`),
    /// and for an end-to-end head (YOLO26) its one-to-one branches': their decoded output
    /// (`<head>.one2one`, corners within `boxTolerance` px, scores within `scoreTolerance`) and their
    /// maps (`<head>.one2one.raw.<i>`).
    private static func headMapRows(model: DetectionModel, outputs: [Int: Tensor], golden: TensorFile, headName: String) throws -> [Row] {
        guard let layer = model.layers.last, case let .head(head) = layer.operation else { return [] }
        let levels = try layer.from.map { source -> Tensor in
            guard let level = outputs[source == -1 ? layer.index - 1 : source] else {
                throw ModelError.invalidLayer(file: model.file, layer: layer.index, reason: "input \(source) was not observed")
            }
            return level
        }
        var rows = try rawRows(head.rawMaps(levels), prefix: headName, golden: golden)
        guard model.hasEndToEndHead else { return rows }
        let name = headName + ".one2one"
        let decoded = head.detect.oneToOne(levels), expected = try golden.tensor(named: name)
        guard decoded.shape == expected.shape else {
            throw TensorFileError.shapeMismatch(file: golden.path, tensor: name, expected: decoded.shape, actual: expected.shape)
        }
        let anchors = decoded.shape[2], boxCount = 4 * anchors, scoreEnd = (4 + model.classCount) * anchors
        let boxes = TensorDifference(
            actual: UnsafeBufferPointer(rebasing: decoded.buffer[0..<boxCount]),
            expected: UnsafeBufferPointer(rebasing: expected.buffer[0..<boxCount])) { _ in Self.boxTolerance }
        let scores = TensorDifference(
            actual: UnsafeBufferPointer(rebasing: decoded.buffer[boxCount..<scoreEnd]),
            expected: UnsafeBufferPointer(rebasing: expected.buffer[boxCount..<scoreEnd])) { _ in Self.scoreTolerance }
        rows += [
            Row(name: name + " boxes", shape: [1, 4, anchors], difference: boxes, bound: "abs ≤ \(Self.boxTolerance) px",
                passed: boxes.isWithinTolerance),
            Row(name: name + " scores", shape: [1, model.classCount, anchors], difference: scores, bound: "abs ≤ \(Self.scoreTolerance)",
                passed: scores.isWithinTolerance),
        ]
        return rows + (try rawRows(head.rawMaps(levels, oneToOne: true), prefix: name, golden: golden))
    }

    /// `<prefix>.raw.<i>` for each level's map, against the golden's.
    private static func rawRows(_ maps: [Tensor], prefix: String, golden: TensorFile) throws -> [Row] {
        try maps.enumerated().map { level, actual in
            let name = "\(prefix).raw.\(level)"
            let expected = try golden.tensor(named: name)
            guard actual.shape == expected.shape else {
                throw TensorFileError.shapeMismatch(file: golden.path, tensor: name, expected: actual.shape, actual: expected.shape)
            }
            return relativeRow(name, actual: actual, expected: expected)
        }
    }

    /// The rows of the head after the class scores: mask coefficients within `scoreTolerance`;
    /// keypoint coordinates within `boxTolerance` pixels and visibilities within `scoreTolerance`.
    private static func extraRows(_ extras: HeadExtras, head: Tensor, expected: Tensor, from firstRow: Int, headName: String) throws -> [Row] {
        let anchors = head.shape[2]
        /// The rows of `tensor` whose index (from `firstRow`) satisfies `take`, concatenated.
        func gather(_ tensor: Tensor, _ take: (Int) -> Bool) -> [Float] {
            (0..<extras.rowCount).filter(take).flatMap { row in
                Array(UnsafeBufferPointer(start: tensor.data + (firstRow + row) * anchors, count: anchors))
            }
        }
        func row(_ name: String, _ take: (Int) -> Bool, tolerance: Float, unit: String) -> Row {
            let actual = gather(head, take), wanted = gather(expected, take)
            let difference = actual.withUnsafeBufferPointer { a in
                wanted.withUnsafeBufferPointer { e in TensorDifference(actual: a, expected: e) { _ in tolerance } }
            }
            return Row(name: headName + " " + name, shape: [1, actual.count / max(anchors, 1), anchors], difference: difference,
                       bound: "abs ≤ \(tolerance)\(unit)", passed: difference.isWithinTolerance)
        }
        switch extras {
        case .none:
            return []
        case .maskCoefficients:
            return [row("mask coefficients", { _ in true }, tolerance: scoreTolerance, unit: "")]
        case let .keypoints(_, dimensions):
            var rows = [row("keypoints", { $0 % dimensions < 2 }, tolerance: boxTolerance, unit: " px")]
            if dimensions == 3 { rows.append(row("keypoint visibility", { $0 % dimensions == 2 }, tolerance: scoreTolerance, unit: "")) }
            return rows
        }
    }
}
