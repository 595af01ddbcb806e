/// A failure to report in one line (`Error: …` on stderr) with exit status 1: a model that does not
/// load, a labels file that does not fit, an output directory that cannot be made.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ error: any Error) { description = "\(error)" }
    init(message: String) { description = message }
}
