import YOLOImage

extension YUVToRGB {
    /// Converts one frame's planes, laid out as in a YUV4MPEG2 frame: Y (`width × height`), then Cb,
    /// then Cr (each `chroma.chromaSize`), in one band of rows per thread of `parallel` (the rows
    /// are independent: each reads its own luma row and the chroma row it shares with its pair).
    /// - Precondition: `planes.count` is the frame's byte count for `chroma`.
    package func convert(_ planes: UnsafeRawBufferPointer, width: Int, height: Int, chroma: Y4MChroma,
                         parallel: ParallelLoop = .serial) -> RGBImage {
        let c = chroma.chromaSize(width: width, height: height)
        precondition(planes.count == width * height + 2 * c.width * c.height,
                     "YUVToRGB: \(planes.count) bytes for a \(width)×\(height) \(chroma.rawValue) frame")
        let bytes = planes.bindMemory(to: UInt8.self)
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, initialized in
            let yPlane = UnsafeBufferPointer(rebasing: bytes[0..<(width * height)])
            let uStart = width * height, vStart = uStart + c.width * c.height
            let uPlane = UnsafeBufferPointer(rebasing: bytes[uStart..<vStart])
            let vPlane = UnsafeBufferPointer(rebasing: bytes[vStart..<(vStart + c.width * c.height)])
            guard let y = yPlane.baseAddress, let u = uPlane.baseAddress, let v = vPlane.baseAddress,
                  let rgb = out.baseAddress else { return }  // never empty: the sides are positive
            parallel.share(height) { rows in
                if chroma.isSubsampled {
                    for row in rows {
                        convertSubsampledRow(y: y + row * width, u: u + (row >> 1) * c.width, v: v + (row >> 1) * c.width,
                                             chromaStep: 1, width: width, into: rgb + row * width * 3)
                    }
                } else {
                    let first = rows.lowerBound * width
                    convertFull(y: y + first, u: u + first, v: v + first, count: rows.count * width, into: rgb + 3 * first)
                }
            }
            initialized = width * height * 3
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Converts planes held in an array (see `convert(_:width:height:chroma:parallel:)`).
    package func convert(_ planes: [UInt8], width: Int, height: Int, chroma: Y4MChroma, parallel: ParallelLoop = .serial) -> RGBImage {
        planes.withUnsafeBytes { convert($0, width: width, height: height, chroma: chroma, parallel: parallel) }
    }
}
