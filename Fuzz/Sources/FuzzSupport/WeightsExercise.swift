import SwiftYOLO
import YOLOModel

/// What the weights and model targets do with a file `TensorFile` accepted: build the model and,
/// if it builds, run it once on a small input.
package enum WeightsExercise {
    /// The largest input side tried (the model's largest stride, if it is at most this).
    package static let largestInputSide = 64

    package static func run(_ file: TensorFile, path: String) {
        let model: DetectionModel
        do {
            model = try DetectionModel(file: file)
        } catch {
            Fuzz.check(Fuzz.names(error, path), "model error does not name the file: \(error)")
            return
        }
        let side = model.maximumStride
        guard side <= largestInputSide else { return }
        let shapes = model.outputShapes(height: side, width: side)
        Fuzz.check(shapes.count == model.layers.count, "\(shapes.count) shapes for \(model.layers.count) layers")
        do {
            let output = try model(Tensor(shape: [1, model.description.inputChannels, side, side]))
            Fuzz.check(output.shape == shapes.last, "output \(output.shape), predicted \(shapes.last ?? [])")
        } catch {
            Fuzz.check(false, "a model that loaded refused a \(side)x\(side) input: \(error)")
        }
    }
}
