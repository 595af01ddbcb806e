// libFuzzer target: PNG and JPEG decoding (libpng/libjpeg behind the setjmp-safe C wrappers, the
// header checks and limits, EXIF orientation in JPEG APP1 and PNG eXIf), then preprocessing of
// whatever decodes, in every resize mode.
//
// Invariants: a refusal is an `ImageError` that names the input; `info` and `decode` agree; the
// decoded size is the header's (swapped by EXIF 5…8); decoding is deterministic (no uninitialised
// pixels); every preprocessing canvas has the geometry's size. libFuzzer's -malloc_limit_mb turns
// any allocation out of proportion to the 4-megapixel limit into a finding.
import FuzzSupport
import SwiftYOLO
import YOLOImage

private let decoder = ImageDecoder(maxPixels: 1 << 22)
private let name = "fuzz-input"

private func fuzzImage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let info: ImageInfo
    do {
        info = try decoder.info(bytes, name: name)
    } catch {
        Fuzz.check(error.file == name && Fuzz.names(error, name), "header error does not name the input: \(error)")
        do {
            let image = try decoder.decode(bytes, name: name)
            Fuzz.check(false, "info refused (\(error)) what decode accepted (\(image.width)x\(image.height))")
        } catch {}
        return 0
    }
    Fuzz.check(info.width > 0 && info.height > 0 && info.width * info.height <= decoder.maxPixels, "info \(info)")
    let image: RGBImage
    do {
        image = try decoder.decode(bytes, name: name)
    } catch {
        Fuzz.check(error.file == name && Fuzz.names(error, name), "decode error does not name the input: \(error)")
        return 0
    }
    let swaps = info.orientation?.swapsDimensions ?? false
    Fuzz.check(image.width == (swaps ? info.height : info.width) && image.height == (swaps ? info.width : info.height),
               "decoded \(image.width)x\(image.height), header \(info)")
    Fuzz.check(image.pixels.count == image.width * image.height * 3, "pixel buffer size")
    if image.width * image.height <= 1 << 16 {
        Fuzz.check((try? decoder.decode(bytes, name: name)) == image, "a second decode gave other pixels")
    }
    for mode in ResizeMode.allCases {
        let preprocessor = Preprocessor(options: PreprocessOptions(imageSize: 64, mode: mode))
        let (canvas, geometry) = preprocessor.canvas(for: image)
        Fuzz.check(canvas.width == geometry.inputWidth && canvas.height == geometry.inputHeight
                   && canvas.width <= 64 && canvas.height <= 64, "\(mode) canvas \(canvas.width)x\(canvas.height)")
        let box = geometry.mapToOriginal(x1: 0, y1: 0, x2: Float(canvas.width), y2: Float(canvas.height))
        Fuzz.check(box.x1 >= 0 && box.y1 >= 0 && box.x2 <= Float(image.width) && box.y2 <= Float(image.height),
                   "\(mode): a canvas box maps outside the image: \(box)")
    }
    return 0
}

Fuzz.run(fuzzImage)
