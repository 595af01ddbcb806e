/// A dense float32 tensor in PyTorch's layout (NCHW for feature maps), stored contiguously.
///
/// Storage is either owned (from the tensor arena, `BufferPool`: page-aligned) or borrowed from a
/// memory-mapped file that `keepAlive` holds open. A `Tensor` is a reference: the engine writes
/// into the buffers it allocates, and never into borrowed ones.
package final class Tensor: @unchecked Sendable {
    /// Dimensions, outermost first (`[1, C, H, W]` for a feature map).
    package let shape: [Int]
    /// Number of elements: the product of `shape`.
    package let count: Int
    /// The first element. Valid while this tensor lives.
    package let data: UnsafeMutablePointer<Float>
    /// The pool buffer behind owned storage; `nil` for borrowed storage.
    private let storage: BufferPool.Buffer?
    private let keepAlive: AnyObject?

    /// Allocates a zero-filled tensor.
    package convenience init(shape: [Int]) {
        self.init(uninitializedShape: shape)
        data.update(repeating: 0, count: max(count, 1))
    }

    /// Allocates a tensor whose elements are unspecified until written: for outputs that a kernel
    /// overwrites completely, so no time goes into zero-filling them first. Storage comes from
    /// (and returns to) `BufferPool.shared`.
    package init(uninitializedShape shape: [Int]) {
        precondition(shape.allSatisfy { $0 >= 0 }, "negative dimension in \(shape)")
        self.shape = shape
        self.count = shape.reduce(1, *)
        let buffer = BufferPool.shared.take(byteCount: max(count, 1) * MemoryLayout<Float>.stride)
        self.data = buffer.pointer.bindMemory(to: Float.self, capacity: max(count, 1))
        self.storage = buffer
        self.keepAlive = nil
    }

    /// Copies `values` (row-major, `shape.reduce(1, *)` of them) into a new tensor.
    package convenience init(shape: [Int], values: [Float]) {
        self.init(shape: shape)
        precondition(values.count == count, "\(values.count) values for shape \(shape)")
        for (index, value) in values.enumerated() { data[index] = value }
    }

    /// Wraps memory owned by `keepAlive` (a memory-mapped file, or another tensor this one is a view
    /// of) without copying.
    package init(borrowing pointer: UnsafeMutablePointer<Float>, shape: [Int], keepAlive: AnyObject) {
        self.shape = shape
        self.count = shape.reduce(1, *)
        self.data = pointer
        self.storage = nil
        self.keepAlive = keepAlive
    }

    deinit {
        if let storage { BufferPool.shared.give(storage) }
    }

    package var rank: Int { shape.count }

    /// The elements as an array (a copy).
    package var values: [Float] { Array(UnsafeBufferPointer(start: data, count: count)) }

    /// The elements as a buffer, valid while this tensor lives.
    package var buffer: UnsafeMutableBufferPointer<Float> { UnsafeMutableBufferPointer(start: data, count: count) }
}

extension Tensor {
    /// Channels, height and width of a `[1, C, H, W]` feature map.
    package var chw: (channels: Int, height: Int, width: Int) {
        precondition(rank == 4 && shape[0] == 1, "expected a [1, C, H, W] feature map, got \(shape)")
        return (shape[1], shape[2], shape[3])
    }

    /// A new `[1, C, H, W]` feature map, zero-filled, or left unspecified for a kernel that writes
    /// every element.
    package static func featureMap(channels: Int, height: Int, width: Int, zeroed: Bool = true) -> Tensor {
        zeroed ? Tensor(shape: [1, channels, height, width]) : Tensor(uninitializedShape: [1, channels, height, width])
    }

    /// A pointer to channel `c` of a `[1, C, H, W]` feature map.
    package func channel(_ c: Int) -> UnsafeMutablePointer<Float> {
        data + c * shape[2] * shape[3]
    }
}

extension Tensor: CustomStringConvertible {
    package var description: String { "Tensor\(shape)" }
}

extension Tensor {
    /// The index of the first NaN or infinity, or `nil`: the elements' exponent bits all set, tested
    /// sixteen at a time.
    package func firstNonFiniteIndex() -> Int? {
        let exponent = SIMD16<UInt32>(repeating: 0x7f80_0000)
        var start = 0
        while start + 16 <= count {
            let bits = UnsafeRawPointer(data + start).loadUnaligned(as: SIMD16<UInt32>.self)
            if any(bits & exponent .== exponent) { break }
            start += 16
        }
        return (start..<count).first { !data[$0].isFinite }
    }
}
