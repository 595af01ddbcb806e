// libFuzzer target: what a program that saved SwiftYOLO's results reads back, `DetectionResult` from
// JSON (its detections' boxes, COCO run-length masks, keypoints and stage timings), then what it may
// call on what decodes.
//
// Invariants: a refusal is a `DecodingError`; what decodes encodes and decodes again to an equal
// result; `foregroundMask()` and `instanceMap()` hold one value per image pixel (checked on images of
// at most 4 megapixels); `addingFaces()` keeps every detection. Nothing may crash.
//
// A mask is held over its bounding region, a byte a pixel, and the decoder accepts masks of up to
// a gigapixel (`InstanceMask.maximumPixels`), so a few bytes of JSON may ask for a gigabyte by
// design: inputs whose masks declare more than 4 megapixels in all are passed over, so that
// libFuzzer's memory limits flag what the limits do not allow.
import FoundationEssentials
import FuzzSupport
import SwiftYOLO

private let decoder = JSONDecoder()
private let encoder = JSONEncoder()

/// The masks' declared sizes: whatever `DetectionResult` decodes, this does too.
private struct DeclaredMasks: Decodable {
    struct Detection: Decodable {
        struct Mask: Decodable { let size: [Int] }
        let mask: Mask?
    }
    let detections: [Detection]

    /// The pixels of every mask of two sides (negative sides, which the decoder refuses, as 0).
    var pixels: Int {
        let side = 1 << 22
        return detections.reduce(0) { total, detection in
            guard let size = detection.mask?.size, size.count == 2 else { return total }
            guard size.allSatisfy({ $0 <= side }) else { return side * side }
            return min(total + max(0, size[0]) * max(0, size[1]), side * side)
        }
    }
}

private func fuzzResult(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let json = Data(UnsafeBufferPointer(start: data, count: size))
    if let masks = try? decoder.decode(DeclaredMasks.self, from: json), masks.pixels > 1 << 22 { return 0 }
    let result: DetectionResult
    do {
        result = try decoder.decode(DetectionResult.self, from: json)
    } catch {
        Fuzz.check(error is DecodingError, "a refusal that is not a DecodingError: \(error)")
        return 0
    }
    do {
        let again = try decoder.decode(DetectionResult.self, from: encoder.encode(result))
        Fuzz.check(again == result, "a result that does not survive encoding and decoding again")
    } catch {
        Fuzz.check(false, "a decoded result whose encoding is refused: \(error)")
    }
    let pixels = result.imageWidth * result.imageHeight
    if pixels <= 1 << 22 {
        Fuzz.check(result.foregroundMask().count == pixels, "a foreground mask of another size")
        Fuzz.check(result.instanceMap().count == pixels, "an instance map of another size")
    }
    Fuzz.check(result.addingFaces().detections.count == result.detections.count, "faces changed the detections")
    return 0
}

Fuzz.run(fuzzResult)
