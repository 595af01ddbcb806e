import Testing
import SwiftYOLO

/// How the parity suites hold SwiftYOLO's detections of one image against Ultralytics' own: the same
/// count; each expected detection paired with the closest unpaired one of its class (the order may
/// differ only between near-equal scores), its confidence and box within the tolerances.
struct UltralyticsMatch {
    let confidenceTolerance: Float
    /// The largest coordinate difference allowed, in original-image pixels.
    let boxTolerance: Float

    /// Records an issue for every difference, and returns the pairs it made (for the checks of masks
    /// and keypoints that some suites add).
    @discardableResult
    func expectMatch(_ detections: [Detection], _ reference: [Detection], context: String,
                     sourceLocation: SourceLocation = #_sourceLocation) -> [(got: Detection, want: Detection)] {
        #expect(detections.count == reference.count,
                "\(context): \(detections.count) detections, Ultralytics has \(reference.count)", sourceLocation: sourceLocation)
        var unmatched = detections
        var pairs: [(got: Detection, want: Detection)] = []
        for want in reference {
            let candidates = unmatched.enumerated().filter { $0.element.classId == want.classId }
            guard let (index, got) = candidates.min(by: { Self.boxError($0.element, want) < Self.boxError($1.element, want) }) else {
                Issue.record("\(context): missing \(want.label) \(want.confidence) \(want.box)", sourceLocation: sourceLocation)
                continue
            }
            unmatched.remove(at: index)
            #expect(abs(got.confidence - want.confidence) <= confidenceTolerance,
                    "\(context): \(want.label) confidence \(got.confidence), Ultralytics \(want.confidence)", sourceLocation: sourceLocation)
            #expect(Self.boxError(got, want) <= boxTolerance,
                    "\(context): \(want.label) box \(got.box), Ultralytics \(want.box)", sourceLocation: sourceLocation)
            #expect(got.label == want.label, "\(context): label \(got.label), Ultralytics \(want.label)", sourceLocation: sourceLocation)
            pairs.append((got, want))
        }
        return pairs
    }

    /// The largest coordinate difference between two boxes, in pixels.
    static func boxError(_ a: Detection, _ b: Detection) -> Float {
        max(abs(a.box.x1 - b.box.x1), abs(a.box.y1 - b.box.y1), abs(a.box.x2 - b.box.x2), abs(a.box.y2 - b.box.y2))
    }
}
