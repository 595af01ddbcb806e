import YOLOModel

/// A failure that ends a command with one line on stderr (`error: …`) and its exit status.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    let status: Int32

    /// The command line asks for something impossible (exit 64).
    static func usage(_ message: String) -> CommandFailure { CommandFailure(description: message, status: ExitStatus.usage) }

    /// The usage error for a command or option that only a model of another task serves:
    /// `WHAT needs a KIND model[ (HINT)]; FILE is a 'TASK' model`.
    static func wrongTask(_ what: String, needs kind: String, hint: String? = nil, model: DetectionModel) -> CommandFailure {
        usage("\(what) needs a \(kind) model\(hint.map { " (\($0))" } ?? ""); \(model.file) is a '\(model.task.rawValue)' model")
    }

    /// The model, labels or golden file cannot be used (exit 65); `note`, when there is one, follows
    /// the error's message.
    static func badModelOrData(_ error: any Error, note: String = "") -> CommandFailure {
        CommandFailure(description: "\(error)" + note, status: ExitStatus.badModelOrData)
    }

    /// An output (the `--save` directory) cannot be created or written (exit 74).
    static func output(_ message: String) -> CommandFailure { CommandFailure(description: message, status: ExitStatus.outputFailed) }

    /// The result of `write`, whose errors are output failures (exit 74), their messages unchanged.
    static func writing<T>(_ write: () throws -> T) throws(CommandFailure) -> T {
        do {
            return try write()
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw output("\(error)")
        }
    }

    /// Whether `error` is an output failure (exit 74): a picture that could not be written.
    static func isOutputFailure(_ error: any Error) -> Bool { (error as? CommandFailure)?.status == ExitStatus.outputFailed }

    /// Anything else that stops the run (exit 1).
    static func failed(_ message: String) -> CommandFailure { CommandFailure(description: message, status: ExitStatus.someInputsFailed) }
}

/// SIGINT or SIGTERM arrived; the run stopped after the line it was writing (exit 128 + signal).
struct Interrupted: Error {
    let signal: Int32

    /// Stops a run over images (`detect`, `background`), saying on stderr how far it got: `done`
    /// of `total` images, where the inputs' count is known.
    static func afterImages(signal: Int32, done: Int, of total: Int?) -> Interrupted {
        StandardStreams.message("interrupted by signal \(signal) after \(done)\(total.map { " of \($0)" } ?? "") image(s)")
        return Interrupted(signal: signal)
    }
}
