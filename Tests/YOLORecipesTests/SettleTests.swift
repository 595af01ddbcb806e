import Testing
import YOLODetect
import YOLORecipes

/// Exactly when `SettleDetector` fires.
@Suite struct SettleTests {
    static func det(_ c: Int, _ x: Float, _ y: Float = 0) -> Detection {
        Detection(classId: c, label: "c\(c)", confidence: 0.9, box: BoundingBox(x1: x, y1: y, x2: x + 20, y2: y + 20))
    }

    /// Feeds `frames` and returns the frame numbers at which the scene settled.
    static func fires(_ frames: [[Detection]], k: Int, iou: Float = 0.85) -> [Int] {
        var settle = SettleDetector(options: SettleOptions(frames: k, iou: iou))
        return frames.indices.filter { settle.update(frames[$0]) != nil }
    }

    @Test func firesOnceWhenKFramesAgreeAndAgainOnlyAfterAChange() {
        // Dice rolling (moving 5 px a frame: IoU 0.6), then still from frame 4, rolling again at 10, still from 12.
        var frames: [[Detection]] = []
        for k in 0..<20 {
            let x: Float = k < 4 ? Float(5 * k) : k < 10 ? 20 : k < 12 ? Float(20 + 5 * (k - 9)) : 40
            frames.append([Self.det(1, x), Self.det(2, 100 - x)])
        }
        #expect(Self.fires(frames, k: 3) == [6, 14])
        #expect(Self.fires(frames, k: 6) == [9, 17])
        #expect(Self.fires(frames, k: 1) == [0, 1, 2, 3, 4, 10, 11, 12], "K = 1: every change is a new scene")
    }

    /// A frame in which the detections flickered out breaks the run; the same scene settling again
    /// after it fired a second event for one roll. Another scene still fires.
    @Test func theSameSceneComingBackToRestIsNotANewEvent() {
        var frames: [[Detection]] = (0..<11).map { $0 == 6 ? [] : [Self.det(1, 20), Self.det(2, 80)] }
        frames += (0..<4).map { _ in [Self.det(1, 60), Self.det(2, 80)] }
        #expect(Self.fires(frames, k: 3) == [2, 13])
    }

    @Test func smallJitterIsTheSameSceneAndCountClassOrOverlapChangesAreNot() {
        let base = [Self.det(0, 0), Self.det(0, 50), Self.det(3, 100)]
        var jittered = base
        jittered[1].box.x1 += 1  // IoU 0.95
        #expect(SettleDetector.sameScene(base, jittered.reversed(), iou: 0.85))
        #expect(!SettleDetector.sameScene(base, Array(base.prefix(2)), iou: 0.85), "count")
        var otherClass = base
        otherClass[2].classId = 4
        #expect(!SettleDetector.sameScene(base, otherClass, iou: 0.85), "classes")
        var moved = base
        moved[0].box = BoundingBox(x1: 3, y1: 0, x2: 23, y2: 20)  // IoU 17/23 ≈ 0.74
        #expect(!SettleDetector.sameScene(base, moved, iou: 0.85), "overlap")
        #expect(SettleDetector.sameScene([], [], iou: 0.85))
    }

    @Test func settledObjectsAreSortedLeftToRight() {
        var settle = SettleDetector(options: SettleOptions(frames: 2))
        let frame = [Self.det(0, 80), Self.det(1, 10), Self.det(2, 40, 30), Self.det(3, 40, 0)]
        #expect(settle.update(frame) == nil)
        #expect(settle.update(frame) == [1, 3, 2, 0])
        #expect(settle.update(frame) == nil, "once per settled scene")
    }
}
