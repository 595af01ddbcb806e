// libFuzzer target: the model description. The input is the JSON metadata of a weights file (the
// model's yaml, scale, nc, names, strides, BatchNorm eps, activations); the tensors are always
// those of the tiny every-block model (Fuzz/Seeds/models/tiny-yolo11), read at start-up from
// $SWIFT_YOLO_FUZZ_TENSORS. So every mutation reaches the description parser and the graph
// builder instead of dying in the tensor table.
import Foundation
import FuzzSupport
import YOLOModel

private let baseTensors: [TensorFileEncoder.Tensor] = {
    guard let path = ProcessInfo.processInfo.environment["SWIFT_YOLO_FUZZ_TENSORS"] else {
        FileHandle.standardError.write(Data("fuzz-model: set SWIFT_YOLO_FUZZ_TENSORS to a weights file (make fuzz does)\n".utf8))
        exit(2)
    }
    do {
        let file = try TensorFile(path: path)
        return file.entries.map { entry in
            let tensor = file.tensor(entry)
            return TensorFileEncoder.Tensor(name: entry.name, shape: entry.shape,
                                            data: Array(UnsafeRawBufferPointer(start: tensor.data, count: 4 * tensor.count)))
        }
    } catch {
        FileHandle.standardError.write(Data("fuzz-model: \(error)\n".utf8))
        exit(2)
    }
}()

private func fuzzModel(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = TensorFileEncoder.encode(metadata: UnsafeBufferPointer(start: data, count: size), tensors: baseTensors)
    let path = bytes.withUnsafeBytes { Fuzz.writeScratch($0) }
    do {
        let file = try TensorFile(path: path)
        WeightsExercise.run(file, path: path)
    } catch {
        Fuzz.check(Fuzz.names(error, path), "error does not name the file: \(error)")
    }
    return 0
}

Fuzz.run(fuzzModel)
