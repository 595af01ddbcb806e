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

    /// Makes the forward passes from now on use `--threads` threads, else every core this process may use.
    func apply() {
        Self.use(threads ?? AvailableCores.count, flag: "--threads")
    }

    /// Makes the forward passes use `count` threads, with a warning on stderr where the system
    /// starts fewer (`ComputeThreads.set`): the results are the same, only slower.
    static func use(_ count: Int, flag: String) {
        let started = ComputeThreads.set(count)
        if started < count {
            StandardStreams.message("warning: \(flag) \(count): the system refused threads past \(started) (ulimit -u, ulimit -v or the control group's pids.max); running with \(started)")
        }
    }
}
