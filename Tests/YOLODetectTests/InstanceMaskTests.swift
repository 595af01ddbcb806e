import Foundation
import Testing
import YOLODetect

/// `InstanceMask` equality is by the pixels covered, whatever region each mask stores: a model's mask
/// keeps its box, one decoded from RLE the bounding box of its pixels.
@Suite struct InstanceMaskTests {
    /// A 6×4 image's mask stored over `region` (x, y, width, height), set at `pixels` (image coordinates).
    static func mask(region: (Int, Int, Int, Int), pixels: [(Int, Int)]) -> InstanceMask {
        let (x0, y0, w, h) = region
        var bits = [UInt8](repeating: 0, count: w * h)
        for (x, y) in pixels { bits[(y - y0) * w + (x - x0)] = 1 }
        return InstanceMask(imageWidth: 6, imageHeight: 4, regionX: x0, regionY: y0, regionWidth: w, regionHeight: h, regionBits: bits)
    }

    @Test func theSamePixelsInOtherRegionsAreEqual() throws {
        let pixels = [(2, 1), (3, 1), (3, 2)]
        let boxed = Self.mask(region: (1, 0, 4, 4), pixels: pixels)  // a box with empty rows and columns around the pixels
        let tight = Self.mask(region: (2, 1, 2, 2), pixels: pixels)
        #expect(boxed.regionWidth != tight.regionWidth)
        #expect(boxed == tight)
        #expect(boxed.hashValue == tight.hashValue)
        #expect(Set([boxed, tight]).count == 1)
        // Through COCO RLE, as a result's JSON carries it: stored tight, equal to the boxed one.
        let decoded = try JSONDecoder().decode(InstanceMask.self, from: JSONEncoder().encode(boxed))
        #expect(decoded == boxed && decoded.regionWidth == 2)
    }

    @Test func otherPixelsOrImageSizesAreUnequal() {
        let base = Self.mask(region: (1, 0, 4, 4), pixels: [(2, 1), (3, 1), (3, 2)])
        #expect(base != Self.mask(region: (1, 0, 4, 4), pixels: [(2, 1), (3, 1), (2, 2)]))  // same box, one pixel moved
        #expect(base != Self.mask(region: (1, 0, 4, 4), pixels: [(2, 1), (3, 1)]))
        #expect(base != InstanceMask(bitmap: base.bitmap() + [0, 0, 0, 0, 0, 0], width: 6, height: 5))
    }

    @Test func emptyMasksOfOneImageSizeAreEqual() {
        let none = Self.mask(region: (0, 0, 6, 4), pixels: [])
        let nothingStored = InstanceMask(bitmap: [UInt8](repeating: 0, count: 24), width: 6, height: 4)
        #expect(none == nothingStored && none.hashValue == nothingStored.hashValue)
        #expect(none != Self.mask(region: (0, 0, 1, 1), pixels: [(0, 0)]))
        #expect(none != InstanceMask(bitmap: [UInt8](repeating: 0, count: 20), width: 5, height: 4))
    }
}
