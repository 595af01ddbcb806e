import SwiftYOLO

/// A request's detection options: the server's defaults, overridden by the request's parameters
/// (query parameters of `/v1/detect` and `/v2/.../infer`, or the `parameters` of a KServe request),
/// named like `detect`'s options: `conf`, `iou`, `imgsz`, `max_det`, `agnostic`, `classes`, `end2end`.
package enum RequestOptions {
    /// The names a request may set.
    package static let names = ["conf", "iou", "imgsz", "max_det", "agnostic", "classes", "end2end"]

    /// `defaults` with `parameters` applied; an unknown name or a value that does not parse is a 400
    /// error naming it. Class names are resolved against `labels`; `imgsz` must lie in the range
    /// `detect --imgsz` takes. Other ranges (confidence in [0, 1], a class the model has, …) are
    /// checked by the detector.
    package static func options(_ parameters: [(name: String, value: String)], defaults: DetectionOptions,
                                labels: LabelMap) throws(RequestError) -> DetectionOptions {
        var options = defaults
        for (name, value) in parameters {
            switch name {
            case "conf": options.confidenceThreshold = try number(value, name: name)
            case "iou": options.iouThreshold = try number(value, name: name)
            case "imgsz":
                let side = try integer(value, name: name), sizes = Detector.commandLineImageSizes
                guard sizes.contains(side) else { throw .badRequest("imgsz: \(side) is not in \(sizes.lowerBound)…\(sizes.upperBound)") }
                options.imageSize = side
            case "max_det": options.maxDetections = try integer(value, name: name)
            case "agnostic": options.agnostic = try flag(value, name: name)
            case "end2end": options.endToEnd = try flag(value, name: name)
            case "classes":
                do { options.classes = Set(try labels.classIds(parsing: value)) } catch { throw .badRequest("classes: \(error)") }
            default:
                throw .badRequest("unknown parameter '\(name)'; the parameters are \(names.joined(separator: ", "))")
            }
        }
        return options
    }

    /// The whole of `value` as a finite number. (`Double(_:)` reads a C string: it stops at a NUL
    /// byte, so `0.9\0junk` would be 0.9.)
    private static func number(_ value: String, name: String) throws(RequestError) -> Double {
        guard !value.contains("\0"), let number = Double(value), number.isFinite else {
            throw .badRequest("\(name): '\(value)' is not a number")
        }
        return number
    }

    private static func integer(_ value: String, name: String) throws(RequestError) -> Int {
        guard let integer = Int(value) else { throw .badRequest("\(name): '\(value)' is not an integer") }
        return integer
    }

    /// `true`/`1`/empty (a bare `?agnostic`) or `false`/`0`.
    private static func flag(_ value: String, name: String) throws(RequestError) -> Bool {
        switch value.lowercased() {
        case "", "true", "1": return true
        case "false", "0": return false
        default: throw .badRequest("\(name): '\(value)' is not true or false")
        }
    }
}
