import Testing
import YOLODetect
import YOLOImage
import YOLORecipes

/// Masks and keypoints of a turned image mapped back: a mask turned with the image by `rotate` and
/// mapped back is the original mask, pixel for pixel; keypoints follow their pixel.
@Suite struct RotationOfMasksTests {
    @Test(arguments: [Rotation.degrees0, .degrees90, .degrees180, .degrees270])
    func maskAndKeypointsComeBack(_ rotation: Rotation) {
        let (w, h) = (13, 7)
        // An L-shaped mask, as red pixels of an image that `rotate` turns.
        var bitmap = [UInt8](repeating: 0, count: w * h)
        for (x, y) in [(2, 1), (2, 2), (2, 3), (3, 3), (4, 3), (9, 5)] { bitmap[y * w + x] = 1 }
        let picture = RGBImage(width: w, height: h, pixels: bitmap.flatMap { [$0 * 255, 0, 0] })
        let turned = rotation.rotate(picture)
        let turnedMask = InstanceMask(bitmap: stride(from: 0, to: turned.pixels.count, by: 3).map { turned.pixels[$0] == 255 ? 1 : 0 },
                                      width: turned.width, height: turned.height)
        // A keypoint at the centre of pixel (9, 5), where it lands in the turned image.
        let centre = rotation.mapToRotated(BoundingBox(x1: 9.5, y1: 5.5, x2: 9.5, y2: 5.5), originalWidth: w, originalHeight: h)
        let detection = Detection(classId: 0, label: "l", confidence: 1, box: BoundingBox(x1: 0, y1: 0, x2: 1, y2: 1), mask: turnedMask,
                                  keypoints: [Keypoint(x: centre.x1, y: centre.y1, confidence: 0.9)])
        let back = rotation.mapToOriginal(detection, originalWidth: w, originalHeight: h)
        #expect(back.mask?.bitmap() == bitmap, "\(rotation)")
        #expect(back.keypoints == [Keypoint(x: 9.5, y: 5.5, confidence: 0.9)], "\(rotation)")
    }
}
