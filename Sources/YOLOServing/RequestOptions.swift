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

    /// The parameters of a URL's query (`conf=0.5&classes=traffic+light`), decoded as HTML forms and
    /// clients such as Python's `requests` encode them: `&` between parameters, the first `=` between
    /// name and value, `+` for a space and `%XX` for a byte, in names as in values (a `%` without two
    /// hex digits after it stays as it is; bytes that are not UTF-8 become U+FFFD). Empty pieces
    /// (`a=1&&b=2`) are passed over.
    package static func parameters(query: String) -> [(name: String, value: String)] {
        query.split(separator: "&").map { piece in
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (formDecoded(parts[0]), parts.count > 1 ? formDecoded(parts[1]) : "")
        }
    }

    private static func formDecoded(_ text: Substring) -> String {
        let encoded = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var i = 0
        while i < encoded.count {
            if encoded[i] == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if encoded[i] == UInt8(ascii: "%"), i + 2 < encoded.count,
                      let high = hexDigit(encoded[i + 1]), let low = hexDigit(encoded[i + 2]) {
                bytes.append(high << 4 | low)
                i += 2
            } else {
                bytes.append(encoded[i])
            }
            i += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
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
