import YOLODetect

/// An object `ObjectTracker` reports for a frame: its track id and its smoothed detection.
public struct TrackedObject: Sendable, Equatable {
    /// Stable across frames, counting from 1 in order of first appearance.
    public var track: Int
    /// Class and label of the track; box smoothed; confidence of the latest observation.
    public var detection: Detection
    /// Index into this frame's input of the detection that continued the track, or `nil` if the
    /// object was not seen in this frame (reported through up to `TrackerOptions.coast` missed frames).
    public var observation: Int?
    /// Frames of the window the object was seen in.
    public var hits: Int
}
