import YOLOKernelSets

/// Chooses the kernel set before a model loads (`KernelSets.activate`): a `SWIFTYOLO_KERNELS` that
/// names no set, or one this CPU lacks, is a usage error (exit 64) that says which sets it has.
func activateKernels() throws {
    do {
        try KernelSets.activate()
    } catch {
        throw CommandFailure.usage("\(error)")
    }
}
