import Foundation
import SwiftYOLO

/// Command-line arguments as `--name value` pairs and positional values.
public struct Arguments {
    public var options: [String: String] = [:]
    public var positional: [String] = []

    public init(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument.hasPrefix("--") { options[String(argument.dropFirst(2))] = iterator.next() ?? "" } else { positional.append(argument) }
        }
    }

    public func int(_ name: String, default value: Int) -> Int { options[name].flatMap(Int.init) ?? value }
    public func string(_ name: String, default value: String) -> String { options[name] ?? value }
}

/// Seconds since an arbitrary start, monotonic.
public func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Resident memory of this process in MiB (/proc/self/statm).
public func residentMiB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

/// The model path: --model, else $SWIFT_YOLO_MODEL, else Weights/yolo11n.swyolo.
public func modelPath(_ arguments: Arguments) -> String {
    arguments.options["model"] ?? ProcessInfo.processInfo.environment["SWIFT_YOLO_MODEL"] ?? "Weights/yolo11n.swyolo"
}

/// Prints to standard error and exits with status 2.
public func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(2)
}
