import ArgumentParser
import FoundationEssentials
import Glibc
import YOLOKernels

/// `--threads`: how many threads one forward pass uses (`ComputeThreads`), for the commands that run
/// one detection at a time (`serve`, which runs several, sets its own default).
struct ThreadsOption: ParsableArguments {
    @Option(help: "Threads of one forward pass (default: every core this process may use: its CPU affinity and its control group's CPU quota). The results are the same for any count.")
    var threads: Int?

    func validate() throws {
        try Self.checkCount(threads, flag: "--threads")
    }

    /// Refuses a count of threads (or of `serve`'s workers) outside 1...`ComputeThreads.maximum`, by its flag.
    static func checkCount(_ count: Int?, flag: String) throws {
        if let count, !(1...ComputeThreads.maximum).contains(count) {
            throw ValidationError("\(flag) must lie in 1...\(ComputeThreads.maximum), got \(count)")
        }
    }

    /// The threads asked for: `--threads`, else every core this process may use.
    var count: Int { threads ?? AvailableCores.count }

    /// Makes the forward passes from now on use `count` threads (`use`).
    func apply() {
        Self.use(count, flag: "--threads")
    }

    /// Makes the forward passes use `count` threads, with a warning on stderr that gives the
    /// system's reason where it starts fewer (`ComputeThreads.set`): the results are the same, only
    /// slower.
    static func use(_ count: Int, flag: String) {
        let grant = ComputeThreads.set(count)
        if grant.threads < count {
            let reason = grant.refusal.map { "\($0)" } ?? "the system refused more"
            StandardStreams.message("warning: \(flag) \(count): \(reason); running with \(grant.threads)")
        }
    }
}
