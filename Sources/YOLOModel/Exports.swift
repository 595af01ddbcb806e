// The model takes and returns `Tensor`s; its users get the type with it.
@_exported import YOLOTensor
