import CBuildInfo
import YOLOKernelSets

/// What `swift-yolo --version` prints: the version, the commit (for `make release` and `make static`
/// builds), the Swift it was built with, and the kernel set this CPU gets among those the binary carries.
enum VersionInfo {
    static let version = "0.2.0"

    static var text: String {
        let kernels: String
        do {
            let set = try KernelSets.choose()
            kernels = "\(set.name) (\(set.instructions)) on \(KernelSets.cpuName)"
        } catch {
            kernels = "none: \(error.reason)"
        }
        return "swift-yolo \(version) (commit \(String(cString: sy_build_commit()))), built with Swift \(swiftVersion)\n"
            + "kernels: \(kernels); this binary has \(KernelSets.all.map(\.name).joined(separator: ", "))"
    }

    private static var swiftVersion: String {
        #if swift(>=6.4)
        "6.4 or later"
        #elseif swift(>=6.3)
        "6.3"
        #elseif swift(>=6.2)
        "6.2"
        #else
        "before 6.2"
        #endif
    }
}
