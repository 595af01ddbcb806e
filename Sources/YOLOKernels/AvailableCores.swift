import CSystemCalls
import Foundation

/// How many cores this process may keep busy: the default thread count of a forward pass.
///
/// `ProcessInfo.activeProcessorCount` counts the machine's cores, less a control group v1 CPU quota,
/// but it misses two limits a process commonly runs under: its CPU affinity (`taskset -c 0`, a
/// container's `--cpuset-cpus`), and a control group v2 CPU quota (`cpu.max`, what a container's
/// `--cpus 2` or a Kubernetes CPU limit sets on current systems). Threads beyond them only wait for a
/// core, or get the group throttled for the rest of each period. So the default is the smallest of
/// the three, a fractional quota rounded down (1.5 CPUs: one thread, not two that stall for the last
/// quarter of every period), and at least one.
package enum AvailableCores {
    /// The cores this process may use, read once.
    package static let count: Int = {
        var count = ProcessInfo.processInfo.activeProcessorCount
        if let allowed = affinityCount() { count = min(count, allowed) }
        if let quota = cgroupQuota(membership: "/proc/self/cgroup", root: "/sys/fs/cgroup") { count = min(count, quota) }
        return max(1, count)
    }()

    /// Whole CPUs in a control group v2 `cpu.max` file's text (`"$QUOTA $PERIOD"` microseconds, or
    /// `"max $PERIOD"` for none): the quota over the period, rounded down, at least 1; nil for no
    /// quota or text that is not one.
    package static func cores(cpuMax text: String) -> Int? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]), quota > 0, period > 0 else { return nil }
        return max(1, quota / period)
    }

    /// The lowest quota of a control group and its ancestors (each limits the groups below it): the
    /// group named by the unified line `0::/path` of `membership` (`/proc/self/cgroup`), under `root`
    /// (`/sys/fs/cgroup`); nil where there is none (no cgroup v2, or no limit on the way up).
    package static func cgroupQuota(membership: String, root: String) -> Int? {
        guard let lines = try? String(contentsOfFile: membership, encoding: .utf8),
              let unified = lines.split(separator: "\n").first(where: { $0.hasPrefix("0::/") }) else { return nil }
        var path = String(unified.dropFirst(3))
        var lowest: Int?
        while true {
            let file = root + (path == "/" ? "" : path) + "/cpu.max"
            if let text = try? String(contentsOfFile: file, encoding: .utf8), let cores = cores(cpuMax: text) {
                lowest = min(lowest ?? cores, cores)
            }
            guard path != "/", let slash = path.lastIndex(of: "/") else { return lowest }
            path = slash == path.startIndex ? "/" : String(path[..<slash])
        }
    }

    /// The CPUs in this thread's affinity mask, which it inherited from the process; nil where the
    /// mask cannot be read.
    private static func affinityCount() -> Int? {
        let count = Int(sy_affinity_cpu_count())
        return count > 0 ? count : nil
    }
}
