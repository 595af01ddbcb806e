import XCTest

import YOLOImage

/// Masks blended at half opacity inside their region only; pose dots and limbs only between
/// keypoints of confidence ≥ 0.5.
final class PoseAndMaskDrawingTests: XCTestCase {
    func testMaskBlendsOnlyItsPixels() {
        var image = RGBImage(width: 6, height: 5, fill: (100, 200, 50))
        // A 3×2 region at (2, 1): its top-left and bottom-right pixels set.
        Annotator.overlayMask(&image, x: 2, y: 1, width: 3, height: 2, bits: [1, 0, 0, 0, 0, 1], color: (0, 0, 255))
        XCTAssertTrue(image.pixel(x: 2, y: 1) == (50, 100, 153))  // round(p / 2 + c / 2): 152.5 -> 153
        XCTAssertTrue(image.pixel(x: 4, y: 2) == (50, 100, 153))
        XCTAssertTrue(image.pixel(x: 3, y: 1) == (100, 200, 50))
        XCTAssertTrue(image.pixel(x: 0, y: 0) == (100, 200, 50))
        // A region running past the image is clipped, not a crash.
        Annotator.overlayMask(&image, x: 5, y: 4, width: 2, height: 2, bits: [1, 1, 1, 1], color: (0, 0, 0))
        XCTAssertTrue(image.pixel(x: 5, y: 4) == (50, 100, 25))
    }

    func testPoseDrawsConfidentKeypointsAndTheirLimbs() {
        let black = RGBImage(width: 100, height: 100, fill: (0, 0, 0))
        var points = [(x: Float, y: Float, confidence: Float)](repeating: (0, 0, 0), count: 17)
        points[5] = (20, 50, 0.9)  // left shoulder
        points[6] = (80, 50, 0.9)  // right shoulder
        points[7] = (20, 90, 0.3)  // left elbow, not confident: no dot, no limb 5-7
        var image = black
        Annotator.drawPose(&image, keypoints: points, lineWidth: 2)
        let limb = Annotator.posePalette[Annotator.limbColors[7]]  // (5, 6), Ultralytics' limb 7
        XCTAssertTrue(image.pixel(x: 50, y: 50) == limb)
        XCTAssertTrue(image.pixel(x: 20, y: 50) == Annotator.posePalette[0])  // keypoint 5's dot
        XCTAssertTrue(image.pixel(x: 20, y: 70) == (0, 0, 0))
        XCTAssertTrue(image.pixel(x: 20, y: 90) == (0, 0, 0))
    }
}
