import Testing
import YOLODetect
import YOLOImage
import YOLORecipes

/// Turning images and mapping boxes between the turned and the original frame.
@Suite struct RotationTests {
    /// A 3×2 image whose pixel (x, y) is (x, y, 7).
    static let tiny = RGBImage(width: 3, height: 2, pixels: (0..<2).flatMap { y in (0..<3).flatMap { x in [UInt8(x), UInt8(y), 7] } })

    @Test func turnsClockwise() {
        // 90° clockwise: the left column becomes the top row, read bottom to top.
        let r90 = Rotation.degrees90.rotate(Self.tiny)
        #expect(r90.width == 2 && r90.height == 3)
        #expect(r90.pixel(x: 0, y: 0) == (0, 1, 7) && r90.pixel(x: 1, y: 0) == (0, 0, 7) && r90.pixel(x: 0, y: 2) == (2, 1, 7))
        let r180 = Rotation.degrees180.rotate(Self.tiny)
        #expect(r180.pixel(x: 0, y: 0) == (2, 1, 7) && r180.pixel(x: 2, y: 1) == (0, 0, 7))
        let r270 = Rotation.degrees270.rotate(Self.tiny)
        #expect(r270.width == 2 && r270.height == 3 && r270.pixel(x: 0, y: 0) == (2, 0, 7) && r270.pixel(x: 1, y: 2) == (0, 1, 7))
        #expect(Rotation.degrees90.rotate(Rotation.degrees270.rotate(Self.tiny)) == Self.tiny)
        #expect(Rotation.degrees180.rotate(Rotation.degrees180.rotate(Self.tiny)) == Self.tiny)
    }

    @Test(arguments: Rotation.allCases)
    func boxesMapBackToWhereThePixelsCameFrom(rotation: Rotation) {
        // A block of marked pixels: its bounding box in the turned image, mapped back, is the block.
        let (w, h) = (13, 8)
        let block = BoundingBox(x1: 2, y1: 1, x2: 7, y2: 4)  // pixels 2…6 × 1…3
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for y in 1..<4 { for x in 2..<7 { pixels[(y * w + x) * 3] = 255 } }
        let turned = rotation.rotate(RGBImage(width: w, height: h, pixels: pixels))
        var found = BoundingBox(x1: .infinity, y1: .infinity, x2: -.infinity, y2: -.infinity)
        for y in 0..<turned.height {
            for x in 0..<turned.width where turned.pixel(x: x, y: y).r == 255 {
                found = BoundingBox(x1: min(found.x1, Float(x)), y1: min(found.y1, Float(y)), x2: max(found.x2, Float(x + 1)), y2: max(found.y2, Float(y + 1)))
            }
        }
        #expect(rotation.mapToRotated(block, originalWidth: w, originalHeight: h) == found)
        #expect(rotation.mapToOriginal(found, originalWidth: w, originalHeight: h) == block)
    }

    @Test func parsesLists() {
        #expect(Rotation.parseList("0,90") == [.degrees0, .degrees90])
        #expect(Rotation.parseList("270, 0,270") == [.degrees270, .degrees0])
        #expect(Rotation.parseList("45") == nil && Rotation.parseList("") == nil && Rotation.parseList("0,,90") == nil)
    }

    @Test func mergeKeepsTheBestBoxOfAPlaceFromWhicheverPass() {
        func d(_ c: Int, _ s: Float, _ x: Float) -> Detection {
            Detection(classId: c, label: "c\(c)", confidence: s, box: BoundingBox(x1: x, y1: 0, x2: x + 10, y2: 10))
        }
        let upright = [d(0, 0.6, 0), d(1, 0.5, 50)]
        let turned = [d(0, 0.9, 1), d(2, 0.4, 1), d(1, 0.5, 51)]
        let merged = RotationMerge.merge([(.degrees0, upright), (.degrees90, turned)], iouThreshold: 0.7, agnostic: false, maxDetections: 300)
        #expect(merged.map(\.detection.confidence) == [0.9, 0.5, 0.4])
        #expect(merged.map(\.rotation) == [.degrees90, .degrees0, .degrees90], "equal scores keep the pass order")
        #expect(merged.map(\.detection.classId) == [0, 1, 2])
        let agnostic = RotationMerge.merge([(.degrees0, upright), (.degrees90, turned)], iouThreshold: 0.7, agnostic: true, maxDetections: 300)
        #expect(agnostic.map(\.detection.classId) == [0, 1], "one box per place whatever its class")
        #expect(RotationMerge.merge([(.degrees0, upright), (.degrees90, turned)], iouThreshold: 0.7, agnostic: false, maxDetections: 1).count == 1)
    }

    @Test func flatArrayLayout() {
        let detections = [Detection(classId: 5, label: "bus", confidence: 0.9, box: BoundingBox(x1: 1, y1: 2, x2: 3, y2: 4)),
                          Detection(classId: 0, label: "person", confidence: 0.5, box: BoundingBox(x1: 10, y1: 20, x2: 30, y2: 40))]
        let flat = FlatDetections.flatten(detections)
        #expect(flat == [5, 0.9, 1, 3, 2, 4, 0, 0.5, 10, 30, 20, 40])
        #expect(FlatDetections.unflatten(flat)?.map(\.box) == detections.map(\.box))
        #expect(FlatDetections.unflatten([1, 2, 3]) == nil)
        // A class that is not a whole number from 0 (from across a language boundary) is refused, not trapped on.
        for bad: Float in [.nan, .infinity, 1e30, -1, 2.5] {
            #expect(FlatDetections.unflatten([bad, 0.9, 0, 10, 0, 10]) == nil, "class \(bad)")
        }
        #expect(FlatDetections.unflatten([3, 0.9, 0, 10, 0, 10])?.map(\.classId) == [3])
    }
}
