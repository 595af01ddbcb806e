import Foundation
import Testing
import YOLOKernels
import YOLOKernelSets

/// Every kernel set compiled into the binary, for tests to run each kernel against its naive twin
/// once per set (the active one chosen first, for the paths that use it). A set this CPU cannot run
/// is skipped by `runs(_:)`, which says so in the test output.
let kernelSetsUnderTest: [KernelSet] = {
    _ = try? KernelSets.activate()
    return KernelSets.all
}()

/// Whether this CPU runs `set`; if not, prints once that its tests are skipped and why.
func runs(_ set: KernelSet) -> Bool {
    if KernelSets.isSupported(set) { return true }
    SkippedKernelSets.note(set)
    return false
}

private enum SkippedKernelSets {
    nonisolated(unsafe) static var noted: Set<String> = []
    static let lock = NSLock()

    static func note(_ set: KernelSet) {
        let first = lock.withLock { noted.insert(set.name).inserted }
        if first { print("skipped: the \(set.name) kernel set (\(set.instructions)), which this CPU (\(KernelSets.cpuName)) cannot run") }
    }
}

extension KernelSet: CustomTestStringConvertible {
    public var testDescription: String { name }
}
