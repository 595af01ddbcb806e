// Kernels take and return `Tensor`s; users of the kernels get the type with them.
@_exported import YOLOTensor
