// libFuzzer target: the CLI's option parsing and validation, on the real command types
// (SwiftYOLOCommands, every subcommand). The input is argv, arguments separated by NUL bytes.
// Nothing is run: a command line that parses has its `--classes` filter resolved against a label
// map (as `detect` does with the model's names), and an error is rendered as the user would see
// it (usage, help, or the one-line message).
import ArgumentParser
import FuzzSupport
import SwiftYOLOCommands
import YOLODetect
import YOLOFileSystem

private let labels = LabelMap(names: (0..<80).map { "class\($0)" } + ["person", "bus", "traffic light", "Zebra"])

private func fuzzCLI(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let words = UnsafeBufferPointer(start: data, count: size)
        .split(separator: 0, omittingEmptySubsequences: false)
        .map { PathEncoding.string(fromFileSystem: $0) }  // byte for byte, as `main` reads argv
    let arguments = SwiftYOLOCommand.joiningNegativeValues(words)  // `--opt -1` as `--opt=-1`, as `run` does
    if let problem = SwiftYOLOCommand.dashedName(in: arguments) {
        Fuzz.check(problem.contains("--"), "a dashed-name refusal that does not show '--'")
        return 0
    }
    do {
        _ = try SwiftYOLOCommand.parseAsRoot(arguments)
        for (index, argument) in arguments.enumerated() {
            let value = argument.hasPrefix("--classes=") ? String(argument.dropFirst(10))
                : argument == "--classes" && index + 1 < arguments.count ? arguments[index + 1] : nil
            guard let value else { continue }
            do {
                let ids = try labels.classIds(parsing: value)
                Fuzz.check(ids.allSatisfy { (0..<labels.count).contains($0) }, "class ids \(ids) out of range")
            } catch {
                Fuzz.check(!"\(error)".isEmpty, "empty class-filter error")
            }
        }
    } catch {
        let message = SwiftYOLOCommand.fullMessage(for: error)
        let status = SwiftYOLOCommand.exitCode(for: error)
        Fuzz.check(status.isSuccess || !message.isEmpty, "a failure with no message (status \(status.rawValue))")
    }
    return 0
}

Fuzz.run(fuzzCLI)
