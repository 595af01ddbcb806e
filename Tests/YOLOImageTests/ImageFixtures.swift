import Foundation
import XCTest
import TestSupport

/// Paths and readers for the fixtures made by `tools/image_fixtures.py` (cv2 5.0 / ultralytics
/// 8.4.190; see each JSON's header) and for the shared sample images in `../shared/images/`.
enum ImageFixtures {
    static let repository = RepositoryFiles.root
    static let directory = repository + "/Tests/Fixtures/images"

    static func path(_ relative: String) -> String { directory + "/" + relative }

    /// `../shared/images/NAME`, failing (not skipping) with a message when it is missing.
    static func sharedImage(_ name: String) throws -> String {
        let path = repository + "/../shared/images/" + name
        guard FileManager.default.fileExists(atPath: path) else {
            XCTFail("\(path) is missing: the tests read the sample images from ../shared/images/")
            throw CocoaError(.fileNoSuchFile)
        }
        return path
    }

    /// Decodes a fixture JSON (JSONDecoder: exact doubles, unlike JSONSerialization's bridging).
    static func load<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(T.self, from: Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    static func bytes(base64 text: String) -> [UInt8] {
        [UInt8](Data(base64Encoded: text) ?? Data())
    }

    /// FNV-1a 64-bit, as 16 hex digits (the generator hashes large images the same way).
    static func fnv1a64(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01B3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Max |a - b| over the sparse samples (every `step`-th pixel) stored beside a hash, and where.
    static func sampleDifference(_ image: RGBImageView, samples: Samples) -> (max: Int, at: String) {
        let step = samples.step, rows = samples.rows, cols = samples.cols
        let expected = bytes(base64: samples.rgbBase64)
        var worst = 0, at = "-"
        for r in 0..<rows {
            for c in 0..<cols {
                for k in 0..<3 {
                    let e = Int(expected[(r * cols + c) * 3 + k])
                    let a = Int(image.pixels[((r * step) * image.width + c * step) * 3 + k])
                    if abs(a - e) > worst {
                        worst = abs(a - e)
                        at = "x=\(c * step) y=\(r * step) channel \(k): got \(a), cv2 \(e)"
                    }
                }
            }
        }
        return (worst, at)
    }

    /// Max |a - b| between two equally long byte arrays, with the first worst index.
    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> (max: Int, index: Int) {
        var worst = 0, index = -1
        for i in 0..<min(a.count, b.count) where abs(Int(a[i]) - Int(b[i])) > worst {
            worst = abs(Int(a[i]) - Int(b[i]))
            index = i
        }
        return (worst, index)
    }
}

/// The little the helpers need from an image (keeps them independent of the module's types).
struct RGBImageView {
    let width: Int
    let pixels: [UInt8]
}

/// Every `step`-th pixel of a large reference image (RGB, base64).
struct Samples: Decodable {
    let step: Int
    let rows: Int
    let cols: Int
    let rgbBase64: String
}

/// `decode.json`: cv2.imread results for the tiny files, hashes + samples for the sample images.
struct DecodeFixture: Decodable {
    struct Entry: Decodable {
        let file: String
        let note: String
        let width: Int
        let height: Int
        let rgbBase64: String
    }
    struct Large: Decodable {
        let file: String
        let width: Int
        let height: Int
        let fnv1a64: String
        let samples: Samples
    }
    let images: [Entry]
    let large: [Large]
}

/// `resize.json`: cv2.resize(INTER_LINEAR) inputs and outputs.
struct ResizeFixture: Decodable {
    struct Case: Decodable {
        let srcW: Int
        let srcH: Int
        let dstW: Int
        let dstH: Int
        let srcBase64: String
        let dstBase64: String
    }
    let cases: [Case]
}

/// `letterbox.json`: LetterBox.get_params, scale_boxes, and LetterBox canvases.
struct LetterboxFixture: Decodable {
    struct Geometry: Decodable {
        let h: Int
        let w: Int
        let size: [Int]
        let mode: String
        let ratioW: Double
        let ratioH: Double
        let unpadW: Int
        let unpadH: Int
        let top: Int
        let bottom: Int
        let left: Int
        let right: Int
        let canvasH: Int
        let canvasW: Int
        let boxes: [[Float]]?
        let mapped: [[Float]]?
    }
    struct Canvas: Decodable {
        let file: String
        let size: Int
        let mode: String
        let width: Int
        let height: Int
        let fnv1a64: String
        let samples: Samples
    }
    let geometry: [Geometry]
    let canvases: [Canvas]
}
