/// The exit statuses scripts rely on (DESIGN.md, `swift-yolo --help`).
enum ExitStatus {
    static let success: Int32 = 0
    /// Some inputs (images, frames) failed; the others were processed.
    static let someInputsFailed: Int32 = 1
    /// The command line is wrong: an unknown option, a value out of range, a class name the model lacks.
    static let usage: Int32 = 64
    /// The model, labels or golden file cannot be used.
    static let badModelOrData: Int32 = 65
    /// Writing the output failed: a full disk, a file-size limit, a closed standard output.
    static let outputFailed: Int32 = 74
    /// A closed pipe, as if SIGPIPE had ended the process (`swift-yolo … | head`).
    static let brokenPipe: Int32 = 128 + 13

    /// Ended early by SIGINT (130) or SIGTERM (143).
    static func interrupted(by signal: Int32) -> Int32 { 128 + signal }

    /// The paragraph `--help` shows.
    static let help = """
        Exit status: 0 ok; 1 some inputs failed (the others were processed); 64 usage error; \
        65 the model or data file cannot be used; 74 writing the output failed (full disk, file-size \
        limit); 130/143 interrupted by SIGINT/SIGTERM (the line being written is finished, no \
        temporary is left); 141 standard output closed early (as `| head`).
        """
}
