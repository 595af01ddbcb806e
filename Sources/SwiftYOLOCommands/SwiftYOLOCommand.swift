import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import YOLOFileSystem
import YOLOTensor

/// `swift-yolo`: the root command and its subcommands.
package struct SwiftYOLOCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "swift-yolo",
        abstract: "Run Ultralytics YOLO11 detection, segmentation and pose models in pure Swift, with no ML runtime.",
        discussion: """
            Models are SwiftYOLO weight files converted from Ultralytics checkpoints:
              python3 tools/convert.py yolo11n.pt Weights/yolo11n.swyolo
              (or `make weights` for the reference checkpoint)

            The default model is $SWIFT_YOLO_MODEL, else Weights/yolo11n.swyolo.

            A file whose name starts with '-' goes after '--' (swift-yolo detect -- -photo.jpg) or is \
            written ./-photo.jpg.

            \(ExitStatus.help)
            """,
        version: VersionInfo.text,
        subcommands: Self.commands)

    package init() {}

    /// The subcommands; `serve` in every build but those made without the server (`SWIFTYOLO_SERVER=0`).
    private static var commands: [any ParsableCommand.Type] {
        var commands: [any ParsableCommand.Type] = [DetectCommand.self, BackgroundCommand.self, VideoCommand.self]
        #if canImport(SwiftYOLOServer)
        commands.append(ServeCommand.self)
        #endif
        return commands + [InspectCommand.self, VerifyCommand.self, BenchCommand.self]
    }

    /// Parses the command line byte for byte (`PathEncoding`), runs the command, and turns every
    /// outcome into one exit status (`ExitStatus`) and at most one line on stderr.
    package static func main() {
        Interruption.install()
        OutputFiles.start()
        // A file-size limit then fails the write (EFBIG), which is reported, instead of killing the
        // process with no message and a temporary left behind.
        signal(SIGXFSZ, SIG_IGN)
        // Under an address-space limit, one malloc arena for every thread, before any thread starts.
        _ = BufferPool.allocatorArenasLimited
        let arguments = (1..<Int(CommandLine.argc)).map { index -> String in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return PathEncoding.string(fromFileSystem: UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
        Glibc.exit(run(arguments))
    }

    /// Runs the command line `arguments` and returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        do {
            let arguments = joiningNegativeValues(arguments)
            if let problem = dashedName(in: arguments) { throw CommandFailure.usage(problem) }
            var command = try parseAsRoot(arguments)
            try command.run()
            return ExitStatus.success
        } catch let failure as CommandFailure {
            StandardStreams.message("error: \(failure.description)")
            return failure.status
        } catch let failure as StandardStreams.OutputFailure {
            if failure.code == EPIPE { return ExitStatus.brokenPipe }  // the reader is gone: nothing to say
            StandardStreams.message("error: \(failure.description)")
            return ExitStatus.outputFailed
        } catch let interrupted as Interrupted {
            return ExitStatus.interrupted(by: interrupted.signal)
        } catch {
            // ArgumentParser's own outcomes: help, a usage error, ExitCode(n).
            let status = exitCode(for: error).rawValue
            let text = fullMessage(for: error)
            if status == ExitStatus.success {
                do { try StandardStreams.line(text) } catch {
                    if error.code == EPIPE { return ExitStatus.brokenPipe }
                    StandardStreams.message("error: \(error.description)")
                    return ExitStatus.outputFailed
                }
            } else if !text.isEmpty {
                StandardStreams.message(text)
            }
            return status
        }
    }

    /// `--option -1` (or `-5G`) as `--option=-1`, so that the option's own check refuses the value
    /// by name: ArgumentParser takes a dashed word for an option, and said the value was missing.
    /// Only numbers, with a memory unit or not, are joined; after `--` nothing is.
    package static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        func isNegativeNumber(_ word: String) -> Bool {
            let number = word.dropFirst()
            return word.hasPrefix("-") && number.first?.isNumber == true && MemorySize.parts(of: String(number)) != nil
        }
        var joined: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { return joined + arguments[index...] }
            let next = index + 1
            if argument.hasPrefix("--"), argument.count > 2, !argument.contains("="), next < arguments.endIndex, isNegativeNumber(arguments[next]) {
                joined.append(argument + "=" + arguments[next])
                index += 2
            } else {
                joined.append(argument)
                index += 1
            }
        }
        return joined
    }

    /// A message for an argument like `-photo.jpg`, which the parser would take for a cluster of
    /// short options (`-h` among them would print help and exit 0); `nil` if there is none.
    /// Arguments after `--`, `-` alone and negative numbers are fine.
    package static func dashedName(in arguments: [String]) -> String? {
        for argument in arguments.prefix(while: { $0 != "--" }) where argument.count > 2 && argument.hasPrefix("-") && !argument.hasPrefix("--") {
            if Double(argument) != nil { continue }
            return "unknown option '\(argument)'; a file whose name starts with '-' goes after '--' "
                + "(swift-yolo detect -- \(argument)) or is written ./\(argument)"
        }
        return nil
    }
}
