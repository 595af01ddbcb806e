import Testing
import TestSupport
import YOLODetect

/// COCO compressed RLE: the hand-worked strings of tools/tests/test_coco_rle.py (pycocotools'
/// format), round trips of random masks through `InstanceMask`, and malformed strings refused.
@Suite struct COCORunLengthTests {
    @Test func handWorkedStrings() {
        #expect(InstanceMask(bitmap: [1, 1, 1, 1], width: 2, height: 2).cocoCounts == "04")
        // Column-major: rows [0, 1], [0, 1] run 0 0 1 1.
        #expect(InstanceMask(bitmap: [0, 1, 0, 1], width: 2, height: 2).cocoCounts == "22")
        #expect(COCORunLength.string([40]) == "X1")
        #expect(COCORunLength.string([3, 1, 5, 0]) == "315O")
        #expect(COCORunLength.counts("315O") == [3, 1, 5, 0])
    }

    @Test func roundTrips() {
        var generator = SplitMix64(seed: 5)
        for (width, height) in [(1, 1), (7, 3), (33, 40), (150, 200)] {
            for density in [0.0, 0.02, 0.5, 0.98, 1.0] {
                let bitmap = (0..<(width * height)).map { _ in Double.random(in: 0..<1, using: &generator) < density ? UInt8(1) : 0 }
                let mask = InstanceMask(bitmap: bitmap, width: width, height: height)
                #expect(mask.bitmap() == bitmap)
                #expect(mask.runLengthCounts.reduce(0, +) == width * height)
                #expect(InstanceMask(cocoCounts: mask.cocoCounts, width: width, height: height)?.bitmap() == bitmap, "\(width)×\(height) at \(density)")
            }
        }
    }

    @Test func malformedStringsAreRefused() {
        #expect(InstanceMask(cocoCounts: "05", width: 2, height: 2) == nil)  // counts sum to 5, not 4
        #expect(InstanceMask(cocoCounts: "0 4", width: 2, height: 2) == nil)  // a space is outside the alphabet
        #expect(InstanceMask(cocoCounts: "0h", width: 2, height: 2) == nil)  // a count left unfinished
        #expect(COCORunLength.counts("0" + String(repeating: "o", count: 20)) == nil)  // an overflowing count
        // Counts of about 2^60 each, every one added to the count two before: the sums pass Int.max.
        #expect(COCORunLength.counts(String(repeating: "ooooooooooo?", count: 40)) == nil)
        #expect(InstanceMask(cocoCounts: "04", width: 1 << 40, height: 1 << 40) == nil)  // a size past the limit
        #expect(InstanceMask(cocoCounts: "0" + COCORunLength.string([1 << 50]), width: 1 << 20, height: 1 << 20) == nil)
    }
}

/// `InstanceMask.polygon`: the clockwise outline of the largest piece.
@Suite struct InstanceMaskPolygonTests {
    @Test func rectangleAndLargestPiece() {
        // A 3×2 block at (1, 1) and a lone pixel at (5, 4) in a 7×6 image.
        var bitmap = [UInt8](repeating: 0, count: 42)
        for (x, y) in [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2), (5, 4)] { bitmap[y * 7 + x] = 1 }
        let mask = InstanceMask(bitmap: bitmap, width: 7, height: 6)
        let outline = mask.polygon().map { [$0.x, $0.y] }
        #expect(outline == [[1, 1], [2, 1], [3, 1], [3, 2], [2, 2], [1, 2]])
        #expect(InstanceMask(bitmap: [0, 0, 0, 1], width: 2, height: 2).polygon().map { [$0.x, $0.y] } == [[1, 1]])
        #expect(InstanceMask(bitmap: [0, 0, 0, 0], width: 2, height: 2).polygon().isEmpty)
    }

    @Test func everyOutlinePixelIsOnTheBoundary() {
        // A disc: the outline is closed, clockwise, and each point is a mask pixel with an outside 4-neighbour.
        let size = 41
        let bitmap = (0..<(size * size)).map { i -> UInt8 in
            let dx = i % size - 20, dy = i / size - 20
            return dx * dx + dy * dy <= 225 ? 1 : 0
        }
        let mask = InstanceMask(bitmap: bitmap, width: size, height: size)
        let outline = mask.polygon()
        #expect(outline.count > 60 && outline.count < 130)
        for p in outline {
            #expect(mask.contains(x: p.x, y: p.y))
            #expect(!mask.contains(x: p.x - 1, y: p.y) || !mask.contains(x: p.x + 1, y: p.y) || !mask.contains(x: p.x, y: p.y - 1) || !mask.contains(x: p.x, y: p.y + 1))
        }
        for (a, b) in zip(outline, outline.dropFirst() + [outline[0]]) { #expect(abs(a.x - b.x) <= 1 && abs(a.y - b.y) <= 1) }
        // Clockwise in image coordinates: the shoelace sum is positive with y pointing down.
        let area = zip(outline, outline.dropFirst() + [outline[0]]).reduce(0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y }
        #expect(area > 0)
    }
}
