import Testing
import TestSupport
@testable import YOLODetect

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
    }
}
