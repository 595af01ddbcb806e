import Testing
import Foundation
import YOLOKernels
import TestSupport

/// The default thread count: the cores a control group v2 or v1 quota allows, and the count itself.
@Suite struct AvailableCoresTests {
    @Test(arguments: [
        ("max 100000", nil), ("max 100000\n", nil),               // no quota
        ("200000 100000\n", 2), ("100000 100000", 1),            // whole CPUs
        ("150000 100000", 1), ("350000 100000", 3),              // fractions round down
        ("50000 100000", 1), ("1000 100000", 1),                  // under one CPU: still one thread
        ("", nil), ("200000", nil), ("a b", nil), ("0 100000", nil), ("-1 100000", nil), ("100000 0", nil),
    ] as [(String, Int?)])
    func coresOfACPUQuota(text: String, cores: Int?) {
        #expect(AvailableCores.cores(cpuMax: text) == cores, "\(text.debugDescription)")
    }

    /// The lowest quota on the way from a process's group up to the root, in a cgroup v2 tree laid
    /// out in a temporary folder: the group's own, a parent's, none at all.
    @Test func quotaOfTheGroupAndItsAncestors() throws {
        let root = try Self.scratchTree()
        func write(_ text: String, _ path: String) throws { try Self.write(text, to: root.appendingPathComponent(path)) }
        let membership = root.appendingPathComponent("cgroup").path, tree = root.appendingPathComponent("fs").path
        try write("12:cpu,cpuacct:/ignored\n0::/kubepods/pod1/app\n", "cgroup")
        try write("max 100000\n", "fs/kubepods/pod1/app/cpu.max")
        try write("300000 100000\n", "fs/kubepods/pod1/cpu.max")
        try write("800000 100000\n", "fs/kubepods/cpu.max")
        #expect(AvailableCores.cgroupV2Quota(membership: membership, root: tree) == 3)
        try write("150000 100000\n", "fs/kubepods/pod1/app/cpu.max")
        #expect(AvailableCores.cgroupV2Quota(membership: membership, root: tree) == 1)
        // The root group of a container's namespace.
        try write("0::/\n", "cgroup")
        #expect(AvailableCores.cgroupV2Quota(membership: membership, root: tree) == nil)
        try write("200000 100000\n", "fs/cpu.max")
        #expect(AvailableCores.cgroupV2Quota(membership: membership, root: tree) == 2)
        // No unified line (cgroup v1 only), or no membership file.
        try write("4:cpu:/\n", "cgroup")
        #expect(AvailableCores.cgroupV2Quota(membership: membership, root: tree) == nil)
        #expect(AvailableCores.cgroupV2Quota(membership: root.appendingPathComponent("absent").path, root: tree) == nil)
    }

    @Test(arguments: [
        ("-1\n", "100000\n", nil), ("200000\n", "100000\n", 2), ("150000", "100000", 1), ("50000", "100000", 1),
        ("", "100000", nil), ("abc", "100000", nil), ("0", "100000", nil), ("100000", "0", nil), ("100000", "", nil),
    ] as [(String, String, Int?)])
    func coresOfAV1Quota(quota: String, period: String, cores: Int?) {
        #expect(AvailableCores.cores(cfsQuota: quota, period: period) == cores, "\(quota.debugDescription) / \(period.debugDescription)")
    }

    /// The lowest v1 quota from the process's group in the `cpu` hierarchy up to the hierarchy's mount,
    /// in a tree laid out in a temporary folder with its own mountinfo: a host's view (the mount's root
    /// is `/`), a container's (the mount's root is its own group), a mount point with a space.
    @Test func v1QuotaOfTheGroupAndItsAncestors() throws {
        let root = try Self.scratchTree()
        func write(_ text: String, _ path: String) throws { try Self.write(text, to: root.appendingPathComponent(path)) }
        func quota(_ path: String, _ quota: Int) throws {
            try write("\(quota)\n", "cpu dir/\(path)/cpu.cfs_quota_us")
            try write("100000\n", "cpu dir/\(path)/cpu.cfs_period_us")
        }
        let membership = root.appendingPathComponent("cgroup").path, mounts = root.appendingPathComponent("mountinfo").path
        let point = root.appendingPathComponent("cpu dir").path.replacingOccurrences(of: " ", with: "\\040")
        func mountinfo(root mountRoot: String) throws {
            try write("31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
                      + "33 31 0:30 / /elsewhere rw,relatime shared:9 - cgroup cgroup rw,cpuacct\n"
                      + "32 31 0:29 \(mountRoot) \(point) rw,relatime shared:8 - cgroup cgroup rw,cpu\n", "mountinfo")
        }
        // A host: the unit's own group has none, its slice 1.5 CPUs, the root none.
        try mountinfo(root: "/")
        try write("5:memory:/system.slice/app.service\n4:cpuacct,cpu:/system.slice/app.service\n0::/system.slice/app.service\n", "cgroup")
        try quota("system.slice/app.service", -1)
        try quota("system.slice", 150_000)
        try quota(".", -1)
        #expect(AvailableCores.cgroupV1Quota(membership: membership, mounts: mounts) == 1)
        try quota("system.slice", -1)
        #expect(AvailableCores.cgroupV1Quota(membership: membership, mounts: mounts) == nil)
        try quota(".", 200_000)
        #expect(AvailableCores.cgroupV1Quota(membership: membership, mounts: mounts) == 2)
        try quota("system.slice/app.service", 100_000)  // the lowest on the way up
        #expect(AvailableCores.cgroupV1Quota(membership: membership, mounts: mounts) == 1)
        try quota("system.slice/app.service", -1)
        // A container: its group is the mount's root, and the mount point shows it.
        try mountinfo(root: "/docker/abc")
        try write("4:cpu,cpuacct:/docker/abc\n", "cgroup")
        try quota(".", 300_000)
        #expect(AvailableCores.cgroupV1Quota(membership: membership, mounts: mounts) == 3)
        // A group outside the mount's root: the mount point's quota.
        try write("4:cpu,cpuacct:/elsewhere/group\n", "cgroup")
        #expect(AvailableCores.cgroupV1Quota(membership: membership, mounts: mounts) == 3)
        // No `cpu` controller among the lines, or no such mount, or no files.
        try write("4:cpuacct:/docker/abc\n0::/\n", "cgroup")
        #expect(AvailableCores.cgroupV1Quota(membership: membership, mounts: mounts) == nil)
        try write("4:cpu,cpuacct:/docker/abc\n", "cgroup")
        try write("31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n", "mountinfo")
        #expect(AvailableCores.cgroupV1Quota(membership: membership, mounts: mounts) == nil)
        #expect(AvailableCores.cgroupV1Quota(membership: root.appendingPathComponent("absent").path, mounts: mounts) == nil)
    }

    /// A fresh, empty folder for one test's tree, in the test process's scratch directory (removed
    /// with it when the process exits).
    static func scratchTree() throws -> URL {
        URL(fileURLWithPath: try ScratchDirectory.fresh("available-cores-\(UUID().uuidString)"))
    }

    /// Writes `text` to `file`, making the folders on the way.
    static func write(_ text: String, to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    /// At least one, and no more than the machine's processors (the limits only lower it).
    @Test func countIsWithinTheMachine() {
        #expect(AvailableCores.count >= 1)
        #expect(AvailableCores.count <= ProcessInfo.processInfo.activeProcessorCount)
    }
}
