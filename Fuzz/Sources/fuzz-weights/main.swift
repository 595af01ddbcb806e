// libFuzzer target: the weights-file reader (`TensorFile`: header, JSON metadata, tensor table,
// bounds, alignment, duplicates, overlaps) and, for whatever it accepts, the model built from it
// (`DetectionModel`: description, weights by name and shape, BatchNorm folding), run once on a
// small input.
//
// Invariants: a refusal names the file; every accepted tensor lies inside the mapping (read at
// both ends under AddressSanitizer); a model that loads runs. Allocations beyond
// -malloc_limit_mb (weights implying absurd activations) are findings.
import FuzzSupport
import SwiftYOLO
import YOLOModel

private func fuzzWeights(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = Fuzz.writeScratch(UnsafeRawBufferPointer(start: data, count: size))
    let file: TensorFile
    do {
        file = try TensorFile(path: path)
    } catch {
        Fuzz.check(Fuzz.names(error, path), "error does not name the file: \(error)")
        return 0
    }
    var checksum: Float = 0
    for entry in file.entries {
        let tensor = file.tensor(entry)
        Fuzz.check(entry.fileOffset % 64 == 0 && entry.fileOffset + 4 * tensor.count <= size, "entry \(entry) outside a \(size)-byte file")
        if tensor.count > 0 { checksum += tensor.data[0] + tensor.data[tensor.count - 1] }
    }
    _ = checksum
    WeightsExercise.run(file, path: path)
    return 0
}

Fuzz.run(fuzzWeights)
