import Testing
import YOLODetect

/// The face rule of `Face` on crafted head keypoints: the box's size from the eyes, the ears or a
/// profile's span, and `frontal` only for a nose between and below seen eyes.
@Suite struct FaceTests {
    /// Nose, left eye, right eye, left ear, right ear (a person's left is the image's right).
    static func head(_ points: [(Float, Float, Float)]) -> [Keypoint] {
        points.map { Keypoint(x: $0.0, y: $0.1, confidence: $0.2) } + Array(repeating: Keypoint(x: 0, y: 0, confidence: 0.9), count: 12)
    }

    @Test func frontalFace() throws {
        let face = try #require(Face(keypoints: Self.head([(100, 110, 0.9), (120, 100, 0.9), (80, 100, 0.9), (140, 105, 0.8), (60, 105, 0.8)]),
                                     imageWidth: 640, imageHeight: 480))
        #expect(face.frontal)
        // Width max(2.2 × 40, 1.1 × 80) = 88, height 110, centred on x 100 and on the mean y 104 + 11.
        #expect(abs(face.box.x1 - 56) < 1e-3 && abs(face.box.x2 - 144) < 1e-3)
        #expect(abs(face.box.y1 - 60) < 1e-3 && abs(face.box.y2 - 170) < 1e-3)
    }

    @Test func turnedFacesAreNotFrontal() throws {
        // The nose outside the eyes (a three-quarter view), level with them, or too far from their middle.
        for nose in [(125 as Float, 110 as Float), (100, 99), (112, 110)] {
            let face = try #require(Face(keypoints: Self.head([(nose.0, nose.1, 0.9), (120, 100, 0.9), (80, 100, 0.9), (0, 0, 0), (0, 0, 0)]),
                                         imageWidth: 640, imageHeight: 480))
            #expect(!face.frontal, "nose at \(nose)")
        }
        // One eye unseen (a profile): a box from the span of nose, eye and ear, not frontal.
        let profile = try #require(Face(keypoints: Self.head([(100, 110, 0.9), (0, 0, 0.2), (90, 100, 0.9), (0, 0, 0.1), (50, 105, 0.9)]),
                                        imageWidth: 640, imageHeight: 480))
        #expect(!profile.frontal)
        #expect(abs(profile.box.width - 80) < 1e-3)  // 1.6 × (100 − 50)
    }

    @Test func tooFewKeypointsGiveNoFaceAndBoxesAreClipped() throws {
        #expect(Face(keypoints: Self.head([(100, 110, 0.9), (0, 0, 0.4), (0, 0, 0.1), (0, 0, 0), (0, 0, 0)]), imageWidth: 640, imageHeight: 480) == nil)
        #expect(Face(keypoints: [], imageWidth: 640, imageHeight: 480) == nil)
        let corner = try #require(Face(keypoints: Self.head([(5, 8, 0.9), (15, 3, 0.9), (0, 3, 0.9), (0, 0, 0), (0, 0, 0)]), imageWidth: 640, imageHeight: 480))
        #expect(corner.box.x1 == 0 && corner.box.y1 == 0)
    }
}
