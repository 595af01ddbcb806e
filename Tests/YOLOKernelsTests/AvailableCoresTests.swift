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

    /// At least one, and no more than the machine's processors (the limits only lower it).
    @Test func countIsWithinTheMachine() {
        #expect(AvailableCores.count >= 1)
        #expect(AvailableCores.count <= ProcessInfo.processInfo.activeProcessorCount)
    }
}
