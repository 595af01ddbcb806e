import YOLOKernels
import YOLOTensor

/// The column of each lane of a vector of a plane's elements, for kernels that walk a plane as one
/// flat run of vectors (`FloatVector`), across row ends or not, and mask the lanes whose neighbour
/// falls off the row: the depthwise convolution and the max pooling.
struct LaneColumns {
    typealias Columns = FloatVector.MaskStorage
    /// The lanes' columns, each in `0 ..< width`.
    private(set) var values: Columns
    let width: Columns
    private let step: Columns

    /// The columns of the vector whose first element is the plane's element `first`.
    init(width: Int, first: Int) {
        self.width = Columns(repeating: Columns.Scalar(width))
        step = Columns(repeating: Columns.Scalar(FloatVector.scalarCount % width))
        values = Columns(repeating: Columns.Scalar(first % width)) &+ laneIndices
        while any(values .>= self.width) { values.replace(with: values &- self.width, where: values .>= self.width) }
    }

    /// The lanes whose column plus `offset` falls outside the row.
    @inline(__always)
    func outside(offset: Int) -> SIMDMask<Columns> {
        let shifted = values &+ Columns.Scalar(offset)
        return (shifted .< Columns()) .| (shifted .>= width)
    }

    /// On to the next vector, `FloatVector.scalarCount` elements on.
    @inline(__always)
    mutating func advance() {
        values &+= step
        values.replace(with: values &- width, where: values .>= width)
    }
}

/// 0, 1, …, lanes − 1: each lane's offset from its vector's first element.
private let laneIndices: FloatVector.MaskStorage = {
    var indices = FloatVector.MaskStorage()
    for lane in 0..<FloatVector.scalarCount { indices[lane] = Int32(lane) }
    return indices
}()
