import Foundation

/// `Fixtures/nms.json`, made by `tools/image_fixtures.py` with ultralytics 8.4.190's
/// `non_max_suppression` and torchvision 0.29's `ops.nms` (see the file's header).
struct NMSFixture: Decodable {
    struct Case: Decodable {
        let conf: Double
        let iou: Double
        let agnostic: Bool
        let classes: [Int]?
        let maxDet: Int
        let nc: Int
        let anchors: Int
        let predBase64: String
        /// Rows of x1, y1, x2, y2, confidence, class.
        let expected: [[Float]]

        /// The `[4 + nc, anchors]` float32 head output.
        var prediction: [Float] {
            let data = Data(base64Encoded: predBase64) ?? Data()
            return data.withUnsafeBytes { raw in
                (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
            }
        }
    }
    let cases: [Case]

    static func load() throws -> NMSFixture {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/nms.json")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(NMSFixture.self, from: Data(contentsOf: path))
    }
}
