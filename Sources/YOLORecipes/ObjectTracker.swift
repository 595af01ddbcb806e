import YOLODetect

/// Keeps identities of detected objects across frames and smooths their boxes.
///
/// Each `update` matches the frame's detections to the live tracks: pairs of the same class whose
/// boxes (the detection's and the track's latest observed box) overlap by at least `matchIoU` are
/// taken greedily, highest IoU first (ties: older track, then earlier detection), so several objects
/// of one class are kept apart. A matched track's box moves by the exponential moving average
/// `ema · observed + (1 − ema) · smoothed`; an unmatched detection starts a new track with the next
/// id. An object is reported once it was seen in at least `minHits` of the last `window` processed
/// frames, and from then on in every frame it is seen in or missed in at most `coast` frames in a
/// row (with its last smoothed box, so a single missed detection does not make it blink). A track
/// unseen for `window` frames is forgotten; until then an object that comes back keeps its id, and
/// is reported at once. Ids count up for the tracker's whole life, `forgetTracks()` included.
public struct ObjectTracker: Sendable {
    /// How it matches and smooths.
    public let options: TrackerOptions
    private var tracks: [Track] = []
    private var nextId = 1

    private struct Track: Sendable {
        let id: Int
        var detection: Detection  // smoothed box, latest confidence and label
        var observedBox: BoundingBox
        /// Consecutive frames, up to this one, the track was not seen in.
        var missed = 0
        /// Seen or not, for the last `window` frames, oldest first.
        var history: [Bool]
        /// Seen in `minHits` of `window` frames at some time: reported from then on while seen or coasting.
        var confirmed = false
        var hits: Int { history.reduce(0) { $0 + ($1 ? 1 : 0) } }
    }

    /// - Precondition: `options.problem == nil`.
    public init(options: TrackerOptions = TrackerOptions()) {
        precondition(options.problem == nil, "ObjectTracker: \(options.problem ?? "")")
        self.options = options
    }

    /// Number of tracks alive (reported or not).
    package var liveTrackCount: Int { tracks.count }

    /// Feeds one processed frame's detections; returns the objects to report, by track id.
    public mutating func update(_ detections: [Detection]) -> [TrackedObject] {
        var pairs: [(iou: Float, track: Int, detection: Int)] = []
        for (t, track) in tracks.enumerated() {
            for (d, detection) in detections.enumerated() where detection.classId == track.detection.classId {
                let iou = intersectionOverUnion(track.observedBox, detection.box)
                if iou >= options.matchIoU { pairs.append((iou, t, d)) }
            }
        }
        pairs.sort { a, b in
            if a.iou != b.iou { return a.iou > b.iou }
            return a.track != b.track ? a.track < b.track : a.detection < b.detection
        }
        var trackMatch = [Int?](repeating: nil, count: tracks.count)
        var detectionTaken = [Bool](repeating: false, count: detections.count)
        for pair in pairs where trackMatch[pair.track] == nil && !detectionTaken[pair.detection] {
            trackMatch[pair.track] = pair.detection
            detectionTaken[pair.detection] = true
        }
        let a = options.ema
        var observations: [Int: Int] = [:]  // track id → detection index
        for t in tracks.indices {
            if let d = trackMatch[t] {
                let seen = detections[d], old = tracks[t].detection.box
                // The latest observation (its mask and keypoints too) with the box smoothed.
                tracks[t].detection = seen
                tracks[t].detection.box = BoundingBox(x1: a * seen.box.x1 + (1 - a) * old.x1, y1: a * seen.box.y1 + (1 - a) * old.y1,
                                                      x2: a * seen.box.x2 + (1 - a) * old.x2, y2: a * seen.box.y2 + (1 - a) * old.y2)
                tracks[t].observedBox = seen.box
                tracks[t].history.append(true)
                tracks[t].missed = 0
                observations[tracks[t].id] = d
            } else {
                tracks[t].history.append(false)
                tracks[t].missed += 1
            }
            if tracks[t].history.count > options.window { tracks[t].history.removeFirst() }
        }
        tracks.removeAll { $0.hits == 0 }
        for (d, detection) in detections.enumerated() where !detectionTaken[d] {
            tracks.append(Track(id: nextId, detection: detection, observedBox: detection.box, history: [true]))
            observations[nextId] = d
            nextId += 1
        }
        for t in tracks.indices where tracks[t].hits >= options.minHits { tracks[t].confirmed = true }
        return tracks.filter { $0.confirmed && $0.missed <= options.coast }.map {
            TrackedObject(track: $0.id, detection: $0.detection, observation: observations[$0.id], hits: $0.hits)
        }
    }

    /// Drops every track (the frames that follow show another scene, as a picture of another size
    /// does); the ids of the objects found from now on continue the count, so none is reused.
    public mutating func forgetTracks() {
        tracks.removeAll()
    }
}
