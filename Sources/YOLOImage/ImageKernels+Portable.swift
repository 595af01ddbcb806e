import YOLOKernels

extension ImageKernels {
    /// The loops as this module is compiled: for any CPU of the architecture.
    package static let portable = compiledImageKernels
}
