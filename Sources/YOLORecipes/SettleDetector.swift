import YOLODetect

/// Tells when a scene has come to rest: `frames` consecutive processed frames showing the same
/// number of objects, the same classes, and every box matched one-to-one with a box of its class
/// overlapping it by more than `iou` (a dice app reads the roll at that moment).
///
/// Frames are compared with the first frame of the current run; a frame that does not match it
/// starts a new run. The event fires once, on the frame that completes the run, and fires again
/// only when a later run settles on a scene other than the last one it fired for: a frame in which
/// a detection flickered out breaks the run, but the same dice coming back to rest are not a new
/// roll. An empty scene can settle too.
public struct SettleDetector: Sendable {
    /// When a scene counts as settled.
    public let options: SettleOptions
    private var anchor: [Detection]?
    private var run = 0
    private var fired = false
    /// The scene of the last event.
    private var lastSettled: [Detection]?

    /// - Precondition: `options.problem == nil`.
    public init(options: SettleOptions) {
        precondition(options.problem == nil, "SettleDetector: \(options.problem ?? "")")
        self.options = options
    }

    /// Feeds one processed frame's detections. When the scene settles on this frame, returns the
    /// indices of `detections` sorted left to right (by x1, then y1, then index); otherwise `nil`.
    public mutating func update(_ detections: [Detection]) -> [Int]? {
        if let anchor, Self.sameScene(anchor, detections, iou: options.iou) {
            run += 1
        } else {
            anchor = detections
            run = 1
            fired = false
        }
        guard run >= options.frames, !fired else { return nil }
        fired = true
        if let lastSettled, Self.sameScene(lastSettled, detections, iou: options.iou) { return nil }
        lastSettled = detections
        return detections.indices.sorted { a, b in
            let da = detections[a].box, db = detections[b].box
            if da.x1 != db.x1 { return da.x1 < db.x1 }
            return da.y1 != db.y1 ? da.y1 < db.y1 : a < b
        }
    }

    /// Same count, same classes, and a one-to-one matching of boxes of equal class with IoU > `iou`
    /// (taken greedily, best overlap first).
    package static func sameScene(_ a: [Detection], _ b: [Detection], iou threshold: Float) -> Bool {
        guard a.count == b.count else { return false }
        guard a.map(\.classId).sorted() == b.map(\.classId).sorted() else { return false }
        var pairs: [(iou: Float, i: Int, j: Int)] = []
        for (i, x) in a.enumerated() {
            for (j, y) in b.enumerated() where x.classId == y.classId {
                let iou = intersectionOverUnion(x.box, y.box)
                if iou > threshold { pairs.append((iou, i, j)) }
            }
        }
        pairs.sort { $0.iou != $1.iou ? $0.iou > $1.iou : ($0.i, $0.j) < ($1.i, $1.j) }
        var usedA = Set<Int>(), usedB = Set<Int>()
        for pair in pairs where !usedA.contains(pair.i) && !usedB.contains(pair.j) {
            usedA.insert(pair.i)
            usedB.insert(pair.j)
        }
        return usedA.count == a.count
    }
}
