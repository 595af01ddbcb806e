import CCPUFeatures
import FoundationEssentials
import Glibc
import YOLOKernels
import YOLOKernelsBaseline
import YOLOPlatform
#if arch(x86_64)
import YOLOKernelsAVX2
import YOLOKernelsAVX512
#endif

/// The kernel sets this binary carries, and the choice among them: made once, at load, from what
/// the CPU can run, or from `SWIFTYOLO_KERNELS=baseline|avx2|avx512`.
package enum KernelSets {
    /// Every set compiled into the binary, from the most portable to the widest.
    package static let all: [KernelSet] = {
        #if arch(x86_64)
        [YOLOKernelsBaseline.kernelSet, YOLOKernelsAVX2.kernelSet, YOLOKernelsAVX512.kernelSet]
        #else
        [YOLOKernelsBaseline.kernelSet]
        #endif
    }()

    /// The sets this CPU can run.
    package static let supported: [KernelSet] = all.filter(isSupported)

    /// Whether this CPU (and its operating system) can run `set`.
    package static func isSupported(_ set: KernelSet) -> Bool {
        switch set.name {
        case "avx2": swiftyolo_cpu_has_x86_64_v3() != 0
        case "avx512": swiftyolo_cpu_has_x86_64_v4() != 0
        default: true
        }
    }

    /// The CPU's brand string (`AMD EPYC 7B13`), or `unknown CPU`.
    package static var cpuName: String {
        let brand = String(String(cString: swiftyolo_cpu_brand()).trimmingWhitespace())
        return brand.isEmpty ? "unknown CPU" : brand
    }

    /// Why a forced kernel set cannot be used.
    package enum SelectionError: Error, CustomStringConvertible {
        /// `SWIFTYOLO_KERNELS` names no set this binary carries.
        case unknownName(String)
        /// The CPU lacks the instructions of the set `SWIFTYOLO_KERNELS` names.
        case unsupported(KernelSet)

        /// What is wrong, without the list of the sets this binary carries (for a caller that prints it anyway).
        package var reason: String {
            switch self {
            case let .unknownName(name):
                "SWIFTYOLO_KERNELS=\(name) names no kernel set"
            case let .unsupported(set):
                "SWIFTYOLO_KERNELS=\(set.name): this CPU (\(cpuName)) lacks \(set.instructions); it supports \(supported.map(\.name).joined(separator: ", "))"
            }
        }

        package var description: String {
            switch self {
            case .unknownName: "\(reason); this binary has \(all.map(\.name).joined(separator: ", "))"
            case .unsupported: reason
            }
        }
    }

    /// The set named by `SWIFTYOLO_KERNELS`, else the widest one the CPU supports.
    package static func choose(environment: [String: String] = ProcessInfo.processInfo.environment) throws(SelectionError) -> KernelSet {
        guard let forced = environment["SWIFTYOLO_KERNELS"], !forced.isEmpty else { return supported.last ?? all[0] }
        guard let set = all.first(where: { $0.name == forced }) else { throw .unknownName(forced) }
        guard isSupported(set) else { throw .unsupported(set) }
        return set
    }

    /// Chooses the kernel set (once; later calls return the first choice) and makes it
    /// `KernelSet.active`.
    @discardableResult
    package static func activate() throws(SelectionError) -> KernelSet {
        try activation.get()
    }

    private static let activation: Result<KernelSet, SelectionError> = {
        do throws(SelectionError) {
            let set = try choose()
            KernelSet.install(set)
            return .success(set)
        } catch {
            return .failure(error)
        }
    }()
}
