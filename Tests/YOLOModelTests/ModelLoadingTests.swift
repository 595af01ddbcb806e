import Foundation
import Testing
import YOLOModel

/// Building the graph from the reference weights, and every way a weights file can fail to fit it.
@Suite struct ModelLoadingTests {

    func referenceFile() throws -> TensorFile {
        _ = try Fixtures.require(Fixtures.referenceWeights)
        return try TensorFile(path: Fixtures.referenceWeights)
    }

    @Test func referenceModelHasUltralyticsParameterCounts() throws {
        let model = try DetectionModel(file: try referenceFile())
        #expect(model.layers.count == 24)
        #expect(model.storedParameterCount == 2_624_080)  // Ultralytics' model summary for yolo11n
        #expect(model.foldedParameterCount == 2_616_248)  // the same after model.fuse()
        #expect(model.classCount == 80 && model.classNames[0] == "person" && model.classNames[79] == "toothbrush")
        #expect(model.strides == [8, 16, 32])
        #expect(model.layers.map(\.module) == ["Conv", "Conv", "C3k2", "Conv", "C3k2", "Conv", "C3k2", "Conv", "C3k2", "SPPF", "C2PSA",
                                               "nn.Upsample", "Concat", "C3k2", "nn.Upsample", "Concat", "C3k2", "Conv", "Concat",
                                               "C3k2", "Conv", "Concat", "C3k2", "Detect"])
        let shapes = model.outputShapes(height: 640, width: 480)
        #expect(shapes[0] == [1, 16, 320, 240])
        #expect(shapes[10] == [1, 256, 20, 15])
        #expect(shapes[23] == [1, 84, 80 * 60 + 40 * 30 + 20 * 15])
    }

    /// The segmentation and pose checkpoints: Ultralytics' counts before and after `model.fuse()`,
    /// and the head's rows (boxes, scores, then 32 mask coefficients or 17 × 3 keypoint values).
    @Test(arguments: [("Weights/yolo11n-seg.swyolo", ModelTask.segment, 2_876_848, 2_868_664, 80 + 4 + 32, HeadExtras.maskCoefficients(count: 32)),
                      ("Weights/yolo11n-pose.swyolo", ModelTask.pose, 2_874_462, 2_866_468, 1 + 4 + 51, HeadExtras.keypoints(count: 17, dimensions: 3))])
    func taskModelsHaveUltralyticsParameterCounts(_ path: String, task: ModelTask, stored: Int, folded: Int, rows: Int, extras: HeadExtras) throws {
        let model = try DetectionModel(path: try Fixtures.require(Fixtures.path(path)))
        #expect(model.task == task && model.headExtras == extras)
        #expect(model.storedParameterCount == stored)
        #expect(model.foldedParameterCount == folded)
        #expect(model.outputShapes(height: 640, width: 480)[23] == [1, rows, 80 * 60 + 40 * 30 + 20 * 15])
    }

    /// YOLO26n as stored: both heads (Ultralytics' summary counts them: 2,572,280), no DFL; folded,
    /// both heads stay (either may run).
    @Test func yolo26HasUltralyticsParameterCounts() throws {
        let model = try DetectionModel(path: try Fixtures.require(Fixtures.path("Weights/yolo26n.swyolo")))
        #expect(model.storedParameterCount == 2_572_280)
        #expect(model.foldedParameterCount == 2_562_496)
        #expect(model.hasEndToEndHead && model.description.regMax == 1)
        #expect(model.outputShapes(height: 640, width: 480)[23] == [1, 84, 80 * 60 + 40 * 30 + 20 * 15])
        let reference = try DetectionModel(file: try referenceFile())
        #expect(!reference.hasEndToEndHead && reference.description.regMax == 16)
        #expect(throws: ModelError.noEndToEndHead(file: reference.file)) {
            try reference(Tensor(shape: [1, 3, 64, 64]), endToEnd: true)
        }
    }

    /// Handed its input's only reference, the model lets it go once the first layer has read it,
    /// so that its storage serves the layers after (what `Detector` does).
    @Test func releasesItsInputAfterTheFirstLayer() throws {
        let model = try DetectionModel(file: try referenceFile())
        var input: Tensor? = Tensor(shape: [1, 3, 64, 64])
        weak let watched = input
        var aliveAt: [Int: Bool] = [:]
        _ = try model.run(input.take()!) { index, _ in aliveAt[index] = watched != nil }
        #expect(aliveAt[0] == true, "layer 0 reads it")
        #expect(aliveAt[1] == false, "released once layer 0 has run")
    }

    @Test func rejectsInputsTheNetworkCannotTake() throws {
        let model = try DetectionModel(file: try referenceFile())
        #expect(throws: ModelError.self) { try model(Tensor(shape: [1, 3, 100, 64])) }
        #expect(throws: ModelError.self) { try model(Tensor(shape: [1, 1, 64, 64])) }
        #expect(throws: ModelError.self) { try model(Tensor(shape: [3, 64, 64])) }
    }

    /// Loads a copy of the reference weights after `edit`, expecting `error`.
    func expectLoading(_ name: String, error expected: (String) -> any Error & Equatable, edit: (inout TensorFileWriter) -> Void) throws {
        var writer = TensorFileWriter(copying: try referenceFile())
        edit(&writer)
        let path = try writer.write(name: name)
        do {
            _ = try DetectionModel(path: path)
            Issue.record("\(name): loaded without error")
        } catch {
            #expect("\(error)" == "\(expected(path))")
            #expect("\(error)".contains(path))
        }
    }

    @Test func missingTensorIsNamed() throws {
        try expectLoading("missing", error: { TensorFileError.missingTensor(file: $0, tensor: "model.8.m.0.cv3.bn.running_var") }) { writer in
            writer.tensors.removeAll { $0.name == "model.8.m.0.cv3.bn.running_var" }
        }
    }

    @Test func wrongShapeIsNamed() throws {
        try expectLoading("shape", error: { TensorFileError.shapeMismatch(file: $0, tensor: "model.0.conv.weight", expected: [16, 3, 3, 3], actual: [16, 3, 1, 9]) }) { writer in
            let index = writer.tensors.firstIndex { $0.name == "model.0.conv.weight" }!
            writer.tensors[index].shape = [16, 3, 1, 9]
        }
    }

    /// A NaN or an infinity in the weights is damage the structure cannot show: refused at load,
    /// naming the tensor and the element (it gave no detections, or boxes over the whole image).
    @Test(arguments: [(Float.nan, "NaN"), (-.infinity, "-infinity"), (.signalingNaN, "NaN"), (Float(bitPattern: 0xffff_ffff), "NaN")])
    func nonFiniteWeightsAreNamed(_ value: Float, _ shown: String) throws {
        let (name, index) = ("model.10.m.0.attn.qkv.conv.weight", 37)
        try expectLoading("non-finite", error: {
            TensorFileError.corruptTensor(file: $0, tensor: name, reason: "element \(index) is \(shown); weights are finite numbers")
        }) { writer in
            writer.tensors[writer.tensors.firstIndex { $0.name == name }!].values[index] = value
        }
    }

    @Test func unusedTensorIsNamed() throws {
        try expectLoading("unused", error: { TensorFileError.unusedTensors(file: $0, tensors: ["model.23.extra.weight"]) }) { writer in
            writer.tensors.append(("model.23.extra.weight", [2], [1, 2]))
        }
    }

    @Test func unsupportedModuleIsNamed() throws {
        try expectLoading("module", error: { ModelError.unsupportedModule(file: $0, layer: 2, module: "C2f") }) { writer in
            guard case var .object(metadata) = writer.metadata, case var .object(yaml)? = metadata["yaml"],
                  case var .array(backbone)? = yaml["backbone"], case var .array(row) = backbone[2] else { return }
            row[2] = .string("C2f")
            backbone[2] = .array(row)
            yaml["backbone"] = .array(backbone)
            metadata["yaml"] = .object(yaml)
            writer.metadata = .object(metadata)
        }
    }

    @Test func otherTasksAndKindsAreRefused() throws {
        try expectLoading("task", error: { ModelError.invalidDescription(file: $0, reason: "task is 'obb', only 'detect', 'segment', 'pose' models are supported") }) { writer in
            if case var .object(metadata) = writer.metadata { metadata["task"] = .string("obb"); writer.metadata = .object(metadata) }
        }
        // The task decides the head: a Detect head in a file that says 'segment' is refused.
        try expectLoading("head", error: { ModelError.invalidLayer(file: $0, layer: 23, reason: "a Detect head in a model whose task is 'segment' (it serves 'detect')") }) { writer in
            if case var .object(metadata) = writer.metadata { metadata["task"] = .string("segment"); writer.metadata = .object(metadata) }
        }
        try expectLoading("kind", error: { TensorFileError.wrongKind(file: $0, expected: "weights", actual: "golden") }) { writer in
            if case var .object(metadata) = writer.metadata { metadata["kind"] = .string("golden"); writer.metadata = .object(metadata) }
        }
    }

    /// A stride list with a zero or negative entry, and a class count of 0, were reported as missing.
    @Test func badStridesAndClassCountsAreNamedAsWhatTheyAre() throws {
        func setting(_ key: String, to value: JSONValue) -> (inout TensorFileWriter) -> Void {
            { writer in if case var .object(metadata) = writer.metadata { metadata[key] = value; writer.metadata = .object(metadata) } }
        }
        let strides = JSONValue.array([.int(8), .int(0), .int(-32)])
        try expectLoading("stride", error: { ModelError.invalidDescription(file: $0, reason: "'stride' is \(strides), not a list of positive integers") },
                          edit: setting("stride", to: strides))
        try expectLoading("nc", error: { ModelError.invalidDescription(file: $0, reason: "'nc' is 0, not a class count of 1 or more") },
                          edit: setting("nc", to: .int(0)))
    }

    @Test func truncatedWeightsAreAnErrorNotACrash() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.require(Fixtures.referenceWeights)))
        for fraction in [0.001, 0.5, 0.999] {
            let path = try TemporaryFile.write(Array(bytes.prefix(Int(Double(bytes.count) * fraction))), name: "truncated")
            #expect(throws: TensorFileError.self) { try DetectionModel(path: path) }
        }
    }
}

/// The layer table `swift-yolo inspect` prints, row by row against Ultralytics' own model summary.
@Suite struct ModelSummaryTests {
    @Test(arguments: [("yolo11n", "Weights/yolo11n.swyolo"), ("yolo11n-seg", "Weights/yolo11n-seg.swyolo"), ("yolo11n-pose", "Weights/yolo11n-pose.swyolo"),
                      ("yolo26n", "Weights/yolo26n.swyolo")])
    func layerTableMatchesUltralytics(_ name: String, weights: String) throws {
        let summary = try String(contentsOfFile: Fixtures.path("Tests/Fixtures/ultralytics-summary-\(name).txt"), encoding: .utf8)
        // "  0                  -1  1       464  ultralytics.nn.modules.conv.Conv             [3, 16, 3, 2]"
        let rows = summary.split(separator: "\n").compactMap {
            $0.wholeMatch(of: /\s*(\d+)\s+(-?\d+|\[[^\]]*\])\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)/)
        }
        let model = try DetectionModel(path: try Fixtures.require(Fixtures.path(weights)))
        #expect(rows.count == model.layers.count)
        for (match, layer) in zip(rows, model.layers) {
            #expect(Int(match.1) == layer.index)
            #expect(String(match.2) == layer.fromDescription, "layer \(layer.index) from")
            #expect(Int(match.3) == layer.repeats, "layer \(layer.index) repeats")
            #expect(Int(match.4) == layer.storedParameterCount, "layer \(layer.index) parameters")
            #expect(match.5.hasSuffix("." + layer.module.replacingOccurrences(of: "nn.", with: "")), "layer \(layer.index) module")
            #expect(String(match.6) == layer.argumentsDescription, "layer \(layer.index) arguments")
        }
    }
}
