import Testing
import Foundation
import YOLOKernels

/// The default thread count: the cores a control group v2 quota allows, and the count itself.
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
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("available-cores-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ text: String, _ path: String) throws {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        let membership = root.appendingPathComponent("cgroup").path, tree = root.appendingPathComponent("fs").path
        try write("12:cpu,cpuacct:/ignored\n0::/kubepods/pod1/app\n", "cgroup")
        try write("max 100000\n", "fs/kubepods/pod1/app/cpu.max")
        try write("300000 100000\n", "fs/kubepods/pod1/cpu.max")
        try write("800000 100000\n", "fs/kubepods/cpu.max")
        #expect(AvailableCores.cgroupQuota(membership: membership, root: tree) == 3)
        try write("150000 100000\n", "fs/kubepods/pod1/app/cpu.max")
        #expect(AvailableCores.cgroupQuota(membership: membership, root: tree) == 1)
        // The root group of a container's namespace.
        try write("0::/\n", "cgroup")
        #expect(AvailableCores.cgroupQuota(membership: membership, root: tree) == nil)
        try write("200000 100000\n", "fs/cpu.max")
        #expect(AvailableCores.cgroupQuota(membership: membership, root: tree) == 2)
        // No unified line (cgroup v1 only), or no membership file.
        try write("4:cpu:/\n", "cgroup")
        #expect(AvailableCores.cgroupQuota(membership: membership, root: tree) == nil)
        #expect(AvailableCores.cgroupQuota(membership: root.appendingPathComponent("absent").path, root: tree) == nil)
    }

    /// At least one, and no more than the machine's processors (the limits only lower it).
    @Test func countIsWithinTheMachine() {
        #expect(AvailableCores.count >= 1)
        #expect(AvailableCores.count <= ProcessInfo.processInfo.activeProcessorCount)
    }
}
