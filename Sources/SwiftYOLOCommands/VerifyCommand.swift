import ArgumentParser
import FoundationEssentials
import Glibc
import YOLOFileSystem
import YOLOModel
import YOLOPlatform

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the engine against golden tensors dumped from Ultralytics/PyTorch.",
        discussion: """
            Runs the model on the input stored in GOLDEN (made by tools/golden.py) and prints, for every \
            top-level layer, the largest absolute error, the error relative to the layer's scale and the \
            first element past the bound. The head must match within \(GoldenVerification.boxTolerance) px on \
            boxes and \(GoldenVerification.scoreTolerance) on class scores; intermediate layers and the head's \
            per-level maps within \(GoldenVerification.layerTolerance) of their scale. Exits with status 1 past \
            any bound. The golden is traced to its weights by the SHA-256 that tools/golden.py records of \
            the file it read and the converter of the checkpoint: a failure says when they are not the model's.

            Example (tools/golden.py needs torch and ultralytics: tools/requirements-golden.txt):
              python3 tools/golden.py --weights yolo11n.pt --image zidane.jpg \\
                  --size 384x640 --out /tmp/zidane.swyolo
              swift-yolo verify /tmp/zidane.swyolo
            """)

    @Argument(help: ArgumentHelp("Golden tensor file written by tools/golden.py.", valueName: "golden"))
    var golden: String

    @OptionGroup var modelOptions: ModelOptions

    func run() throws {
        let model = try modelOptions.load()
        let goldenFile: TensorFile
        let provenance: GoldenProvenance
        do {
            goldenFile = try TensorFile(path: golden)
            provenance = try GoldenProvenance(golden: goldenFile, model: model)
        } catch {
            throw CommandFailure.badModelOrData(error)
        }
        let verification: GoldenVerification
        do {
            // An input whose activations would take more than half the memory is refused before the pass.
            verification = try GoldenVerification(model: model, golden: goldenFile, memoryLimit: MemorySize.defaultLimit.bytes)
        } catch {
            throw CommandFailure.badModelOrData(error, note: Self.otherWeightsNote(provenance))
        }
        let metadata = goldenFile.metadata
        let generator = metadata["generator"]
        let versions = ["torch", "ultralytics"].compactMap { key in generator?[key]?.stringValue.map { "\(key) \($0)" } }
        let input = metadata["input"]?["image"]?.stringValue ?? metadata["input"]?["seed"]?.intValue.map { "random input, seed \($0)" } ?? "?"
        let size = metadata["size"]?.arrayValue?.compactMap(\.intValue).map(String.init).joined(separator: "×") ?? "?"
        // The metadata is the file's text: shown escaped, as the paths are.
        let made = "\(generator?["name"]?.stringValue ?? "?") \(generator?["version"]?.stringValue ?? ""); \(versions.joined(separator: ", "))"
        try StandardStreams.line("golden  \(DisplayText.terminal(golden))  (\(DisplayText.terminal(made)))")
        try StandardStreams.line("input   \(DisplayText.terminal(input)), \(size)")
        try StandardStreams.line("model   \(DisplayText.terminal(modelOptions.resolvedPath))")
        try StandardStreams.line("weights \(DisplayText.terminal(Self.describe(provenance)))")
        try StandardStreams.line("")
        var table = TextTable([("layer", .left), ("shape", .left), ("max-abs", .right), ("relative", .right),
                               ("first bad", .right), ("bound", .left), ("", .left)])
        for row in verification.rows {
            table.append([row.name, "[" + row.shape.map(String.init).joined(separator: ", ") + "]",
                          String(cFormat: "%.3g", row.difference.maxAbsolute), String(cFormat: "%.3g", row.difference.relativeToScale),
                          row.difference.firstBadIndex.map(String.init) ?? "-", row.bound, row.passed ? "ok" : "FAIL"])
        }
        try StandardStreams.line(table.render())
        try StandardStreams.line("")
        if verification.passed {
            try StandardStreams.line("PASS: every layer within its bound")
        } else {
            try StandardStreams.line("FAIL: \(verification.rows.filter { !$0.passed }.map(\.name).joined(separator: ", ")) past the bound"
                                     + Self.otherWeightsNote(provenance))
            throw ExitCode(1)
        }
    }

    /// What a failure adds when the golden was made from other weights than the model's: their likely cause.
    static func otherWeightsNote(_ provenance: GoldenProvenance) -> String {
        guard case let .otherWeights(file, _) = provenance else { return "" }
        return "; the golden was made from other weights (\(DisplayText.terminal(file)))"
    }

    /// Where the golden's weights come from, in words (its metadata's text: shown escaped by the caller).
    static func describe(_ provenance: GoldenProvenance) -> String {
        switch provenance {
        case let .sourceCheckpoint(file): "\(file): the checkpoint this model was converted from"
        case let .modelFile(file): "\(file): this model file"
        case let .otherWeights(file, sha256): "\(file), sha256 \(sha256): not this model's weights"
        case .unrecorded: "not recorded in the golden"
        }
    }
}
