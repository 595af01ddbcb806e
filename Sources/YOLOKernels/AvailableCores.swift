import CSystemCalls
import FoundationEssentials
import Glibc

/// How many cores this process may keep busy: the default thread count of a forward pass.
///
/// `ProcessInfo.activeProcessorCount` counts the machine's cores, less a control group v1 CPU quota
/// set on the root of the `cpu` hierarchy (as a container sees its own group), but it misses the
/// limits a process commonly runs under: its CPU affinity (`taskset -c 0`, a container's
/// `--cpuset-cpus`), a control group v2 CPU quota (`cpu.max`, what a container's `--cpus 2` or a
/// Kubernetes CPU limit sets on current systems), and a v1 quota on the process's own group or one
/// above it (`cpu.cfs_quota_us`: a systemd unit's `CPUQuota=` on a v1 host). Threads beyond them
/// only wait for a core, or get the group throttled for the rest of each period. So the default is
/// the smallest of them, a fractional quota rounded down (1.5 CPUs: one thread, not two that stall
/// for the last quarter of every period), and at least one.
package enum AvailableCores {
    /// The cores this process may use, read once.
    package static let count: Int = {
        var count = ProcessInfo.processInfo.activeProcessorCount
        if let allowed = affinityCount() { count = min(count, allowed) }
        if let quota = cgroupV2Quota(membership: "/proc/self/cgroup", root: "/sys/fs/cgroup") { count = min(count, quota) }
        if let quota = cgroupV1Quota(membership: "/proc/self/cgroup", mounts: "/proc/self/mountinfo") { count = min(count, quota) }
        return max(1, count)
    }()

    /// Whole CPUs in a control group v2 `cpu.max` file's text (`"$QUOTA $PERIOD"` microseconds, or
    /// `"max $PERIOD"` for none); nil for no quota or text that is not one.
    package static func cores(cpuMax text: String) -> Int? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2 else { return nil }
        return wholeCPUs(quota: fields[0], period: fields[1])
    }

    /// A quota over its period in whole CPUs, rounded down and at least 1; nil where either is not
    /// a positive number (v2's `max`, v1's `-1`: no quota).
    private static func wholeCPUs(quota: Substring, period: Substring) -> Int? {
        guard let quota = Int(quota), let period = Int(period), quota > 0, period > 0 else { return nil }
        return max(1, quota / period)
    }

    /// The lowest quota of a control group and its ancestors (each limits the groups below it): the
    /// group named by the unified line `0::/path` of `membership` (`/proc/self/cgroup`), under `root`
    /// (`/sys/fs/cgroup`); nil where there is none (no cgroup v2, or no limit on the way up).
    package static func cgroupV2Quota(membership: String, root: String) -> Int? {
        guard let lines = try? String(contentsOfFile: membership, encoding: .utf8),
              let unified = lines.split(separator: "\n").first(where: { $0.hasPrefix("0::/") }) else { return nil }
        return lowestQuota(under: root, group: String(unified.dropFirst(3))) { folder in
            (try? String(contentsOfFile: folder + "/cpu.max", encoding: .utf8)).flatMap { cores(cpuMax: $0) }
        }
    }

    /// Whole CPUs in a control group v1 quota (`cpu.cfs_quota_us` microseconds per `cpu.cfs_period_us`,
    /// the quota -1 for none): rounded down, at least 1; nil for no quota or text that is not one.
    package static func cores(cfsQuota quotaText: String, period periodText: String) -> Int? {
        let quota = quotaText.split(whereSeparator: \.isWhitespace), period = periodText.split(whereSeparator: \.isWhitespace)
        guard quota.count == 1, period.count == 1 else { return nil }
        return wholeCPUs(quota: quota[0], period: period[0])
    }

    /// The lowest control group v1 CPU quota of the process's group in the `cpu` hierarchy and of its
    /// ancestors up to the hierarchy's mount: the group named by the line of `membership`
    /// (`/proc/self/cgroup`) whose controllers include `cpu`, found under the `cgroup` mount of
    /// `mounts` (`/proc/self/mountinfo`) that has the `cpu` option. A group outside the mount's root
    /// (a container that sees only its own group) is the mount itself. Nil where there is none.
    package static func cgroupV1Quota(membership: String, mounts: String) -> Int? {
        // /proc/self/cgroup: ID:CONTROLLERS:PATH, one line per hierarchy.
        guard let lines = try? String(contentsOfFile: membership, encoding: .utf8),
              let groupPath = lines.split(separator: "\n").lazy.compactMap({ line -> String? in
                  let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
                  return fields.count == 3 && fields[1].split(separator: ",").contains("cpu") ? String(fields[2]) : nil
              }).first,
              let table = try? String(contentsOfFile: mounts, encoding: .utf8) else { return nil }
        // mountinfo: ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS [OPTIONAL…] - TYPE SOURCE SUPER-OPTIONS
        let mount = table.split(separator: "\n").lazy.compactMap { line -> (root: String, point: String)? in
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2 else { return nil }
            let before = halves[0].split(separator: " "), after = halves[1].split(separator: " ")
            guard before.count >= 5, after.count >= 3, after[0] == "cgroup", after[2].split(separator: ",").contains("cpu") else { return nil }
            return (unescaped(before[3]), unescaped(before[4]))
        }.first
        guard let mount else { return nil }
        // The group's folder under the mount point.
        var relative = "/"
        if mount.root == "/" {
            relative = groupPath
        } else if groupPath.hasPrefix(mount.root + "/") {
            relative = String(groupPath.dropFirst(mount.root.count))
        }
        return lowestQuota(under: mount.point, group: relative) { folder in
            guard let quota = try? String(contentsOfFile: folder + "/cpu.cfs_quota_us", encoding: .utf8),
                  let period = try? String(contentsOfFile: folder + "/cpu.cfs_period_us", encoding: .utf8) else { return nil }
            return cores(cfsQuota: quota, period: period)
        }
    }

    /// The lowest of `quota(folder)` over the folder of `group` (a path from `/`) under `base` and
    /// every folder above it up to `base` (each group's quota limits the groups below it).
    private static func lowestQuota(under base: String, group: String, quota: (String) -> Int?) -> Int? {
        var relative = group == "/" ? "" : group
        var lowest: Int?
        while true {
            if let cores = quota(base + relative) { lowest = min(lowest ?? cores, cores) }
            guard let slash = relative.lastIndex(of: "/") else { return lowest }
            relative = String(relative[..<slash])
        }
    }

    /// A mountinfo field with its octal escapes (`\040` for a space) decoded.
    private static func unescaped(_ field: Substring) -> String {
        var bytes: [UInt8] = [], utf8 = Array(field.utf8), i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "\\"), i + 3 < utf8.count,
               let code = UInt8(String(decoding: utf8[(i + 1)...(i + 3)], as: UTF8.self), radix: 8) {
                bytes.append(code)
                i += 4
            } else {
                bytes.append(utf8[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The CPUs in this thread's affinity mask, which it inherited from the process; nil where the
    /// mask cannot be read.
    private static func affinityCount() -> Int? {
        let count = Int(sy_affinity_cpu_count())
        return count > 0 ? count : nil
    }
}
