import Testing
import YOLODetect
import YOLORecipes

/// Track identities, smoothing and reporting rules of `ObjectTracker`.
@Suite struct TrackerTests {
    static func box(_ x: Float, _ y: Float = 0, size: Float = 20) -> BoundingBox { BoundingBox(x1: x, y1: y, x2: x + size, y2: y + size) }
    static func det(_ c: Int, _ x: Float, _ y: Float = 0, size: Float = 20, score: Float = 0.8) -> Detection {
        Detection(classId: c, label: "c\(c)", confidence: score, box: box(x, y, size: size))
    }

    @Test func identitiesFollowObjectsOfOneClassSideBySide() {
        var tracker = ObjectTracker(options: TrackerOptions(ema: 1, minHits: 1, window: 5))
        // Two objects of class 0 moving apart, listed in changing order; a class-1 object in between.
        var ids: [[Int: Float]] = []
        for k in 0..<6 {
            let f = Float(k)
            var frame = [Self.det(0, 100 - 4 * f), Self.det(0, 200 + 4 * f), Self.det(1, 150, 50)]
            if k % 2 == 1 { frame.reverse() }
            let objects = tracker.update(frame)
            ids.append(Dictionary(uniqueKeysWithValues: objects.map { ($0.track, $0.detection.box.x1) }))
            #expect(objects.allSatisfy { $0.observation != nil })
        }
        #expect(ids.allSatisfy { Set($0.keys) == [1, 2, 3] })
        // The expected positions typed out: inferred inside `#expect`, they took the type checker 13 s.
        let left: [Float?] = (0..<6).map { k in 100 - 4 * Float(k) }
        let right: [Float?] = (0..<6).map { k in 200 + 4 * Float(k) }
        #expect(ids.map { $0[1] } == left)
        #expect(ids.map { $0[2] } == right)
        #expect(ids.allSatisfy { $0[3] == 150 })
    }

    @Test func withoutCoastingOnlyObjectsSeenInTheFrameAreReported() {
        var tracker = ObjectTracker(options: TrackerOptions(ema: 1, minHits: 1, window: 5, coast: 0))
        let seen = [true, true, false, true, false, false]
        let reported = seen.map { tracker.update($0 ? [Self.det(0, 40)] : []).map(\.track) }
        #expect(reported == [[1], [1], [], [1], [], []])
    }

    @Test func classesNeverShareATrack() {
        var tracker = ObjectTracker(options: TrackerOptions(ema: 1, minHits: 1))
        #expect(tracker.update([Self.det(0, 10)]).map(\.track) == [1])
        let next = tracker.update([Self.det(2, 10)])  // same place, another class
        #expect(next.map(\.track) == [1, 2] && next.first?.observation == nil)
    }

    @Test func boxesFollowTheMovingAverage() {
        var tracker = ObjectTracker(options: TrackerOptions(ema: 0.4, minHits: 1))
        var expected: Float = 0
        for (k, x) in [Float(0), 10, 20, 20, 20, 26].enumerated() {
            let object = tracker.update([Self.det(0, x)]).first
            expected = k == 0 ? x : 0.4 * x + 0.6 * expected
            #expect(abs((object?.detection.box.x1 ?? -1) - expected) < 1e-4, "frame \(k): \(String(describing: object?.detection.box.x1)) vs \(expected)")
            #expect(abs((object?.detection.box.x2 ?? -1) - (expected + 20)) < 1e-4)
        }
        // 0, 4, 10.4, 14.24, 16.544, 20.3264: the box lags and converges.
        #expect(abs(expected - 20.3264) < 1e-4)
    }

    @Test func reportedFromTheSecondSightingAndForgottenAfterTheWindow() {
        var tracker = ObjectTracker(options: TrackerOptions(ema: 1, minHits: 2, window: 5))
        // The object is present in frames 2…6, then leaves; a one-frame flicker at frame 9.
        var reported: [Int] = []
        for k in 0..<15 {
            let present = (2...6).contains(k) || k == 9
            let objects = tracker.update(present ? [Self.det(0, 40)] : [])
            if !objects.isEmpty { reported.append(k) }
            #expect(objects.allSatisfy { $0.track == 1 }, "one identity while the track is alive")
            if k == 8 { #expect(tracker.liveTrackCount == 1) }
        }
        // Reported from its 2nd sighting (frame 3); missed at 7, it coasts for that one frame; missed
        // again at 8, it is not reported. Back at 9 (frames 5, 6 and 9 of the window 5…9 saw it) it is
        // reported at once with its old id, coasts through 10, and is forgotten at 14, when none of
        // frames 10…14 saw it.
        #expect(reported == [3, 4, 5, 6, 7, 9, 10], "\(reported)")
        #expect(tracker.liveTrackCount == 0)
        // A new object after the old track is forgotten gets a new id.
        _ = tracker.update([Self.det(0, 40)])
        #expect(tracker.update([Self.det(0, 40)]).map(\.track) == [2])
    }

    /// With `minHits` equal to `window`, one missed frame leaves fewer hits than `minHits`: a reported
    /// object still coasts through it and is reported again as soon as it is seen (it was hidden
    /// until `window` new sightings before).
    @Test func aReportedObjectCoastsWhateverItsHits() {
        var tracker = ObjectTracker(options: TrackerOptions(ema: 1, minHits: 5, window: 5, coast: 1))
        var reported: [Int] = []
        for k in 0..<11 {
            if !tracker.update(k == 6 ? [] : [Self.det(0, 40)]).isEmpty { reported.append(k) }
        }
        #expect(reported == [4, 5, 6, 7, 8, 9, 10], "\(reported)")
    }

    /// `forgetTracks` drops the tracks; the objects found afterwards get new ids, never old ones.
    @Test func forgottenTracksLeaveTheirIdsUnused() {
        var tracker = ObjectTracker(options: TrackerOptions(ema: 1, minHits: 1))
        #expect(tracker.update([Self.det(0, 40), Self.det(1, 100)]).map(\.track) == [1, 2])
        tracker.forgetTracks()
        #expect(tracker.liveTrackCount == 0)
        #expect(tracker.update([Self.det(0, 40), Self.det(1, 100)]).map(\.track) == [3, 4])
    }

    @Test func optionsAreChecked() {
        #expect(TrackerOptions().problem == nil)
        #expect(TrackerOptions(ema: 0).problem != nil && TrackerOptions(minHits: 6, window: 5).problem != nil)
        #expect(TrackerOptions(window: 0).problem != nil && TrackerOptions(matchIoU: 1.5).problem != nil)
        #expect(TrackerOptions(coast: -1).problem != nil)
    }
}
