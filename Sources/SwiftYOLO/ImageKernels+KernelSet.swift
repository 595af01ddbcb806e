import YOLOImage
import YOLOKernels

extension ImageKernels {
    /// Preprocessing's loops as kernel set `set` compiled them, for its instruction set.
    package init(_ set: KernelSet) {
        self.init(name: set.name, horizontalPass: set.resizeHorizontalKernel, verticalPass: set.resizeVerticalKernel,
                  planarFloats: set.planarFloatsKernel)
    }

    /// Those of the kernel set that runs the layers (`KernelSet.active`): a detection preprocesses
    /// with the instruction set its forward pass uses.
    package static var active: ImageKernels { ImageKernels(KernelSet.active) }
}
