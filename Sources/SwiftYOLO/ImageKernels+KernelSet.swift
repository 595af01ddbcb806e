import YOLOKernels

extension ImageKernels {
    /// Those of the kernel set that runs the layers (`KernelSet.active`): a detection preprocesses
    /// with the instruction set its forward pass uses.
    package static var active: ImageKernels { KernelSet.active.imageKernels }
}
