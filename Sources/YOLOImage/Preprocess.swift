import YOLOKernels

/// Preprocessing settings; the defaults are those of `YOLO(model).predict(imgsz=640)`.
package struct PreprocessOptions: Sendable, Equatable {
    /// Target height and width (Ultralytics `imgsz`, as `[h, w]`).
    package var targetHeight: Int
    package var targetWidth: Int
    package var mode: ResizeMode
    /// The model's largest stride; `letterbox` pads to multiples of it.
    package var stride: Int
    /// Grey used for padding (Ultralytics: 114).
    package var padValue: UInt8
    /// Allow enlarging small images (`LetterBox(scaleup=True)`, the predict default). Letterbox
    /// and square modes only.
    package var scaleUp: Bool

    package init(imageSize: Int = 640, mode: ResizeMode = .letterbox, stride: Int = 32, padValue: UInt8 = 114,
                scaleUp: Bool = true) {
        self.init(targetHeight: imageSize, targetWidth: imageSize, mode: mode, stride: stride, padValue: padValue,
                  scaleUp: scaleUp)
    }

    package init(targetHeight: Int, targetWidth: Int, mode: ResizeMode = .letterbox, stride: Int = 32,
                padValue: UInt8 = 114, scaleUp: Bool = true) {
        precondition(targetHeight > 0 && targetWidth > 0 && stride > 0,
                     "preprocess target \(targetHeight)x\(targetWidth) and stride \(stride) must be positive")
        self.targetHeight = targetHeight
        self.targetWidth = targetWidth
        self.mode = mode
        self.stride = stride
        self.padValue = padValue
        self.scaleUp = scaleUp
    }

    /// `size` rounded up to a multiple of `stride` (at least one stride), as Ultralytics'
    /// `check_imgsz` does before predicting (it warns, e.g. `imgsz=333` becomes 352).
    package static func strideAligned(_ size: Int, stride: Int = 32) -> Int {
        precondition(stride > 0)
        return max((size + stride - 1) / stride * stride, stride)
    }
}

/// Where the original image went on the model input, and how to map boxes back.
///
/// Coordinates: the original image is `originalWidth × originalHeight`; it is scaled to
/// `resizedWidth × resizedHeight` and placed on the `inputWidth × inputHeight` canvas with its
/// top-left corner at (`padLeft`, `padTop`) — or, in `crop` mode, the canvas shows the resized
/// image from (`cropLeft`, `cropTop`).
package struct PreprocessGeometry: Sendable, Equatable {
    package let mode: ResizeMode
    package let originalWidth: Int
    package let originalHeight: Int
    package let resizedWidth: Int
    package let resizedHeight: Int
    package let inputWidth: Int
    package let inputHeight: Int
    /// Resized / original along each axis, as `LetterBox` reports it in `ratio`.
    package let ratioX: Double
    package let ratioY: Double
    package let padLeft: Int
    package let padTop: Int
    package let padRight: Int
    package let padBottom: Int
    package let cropLeft: Int
    package let cropTop: Int
    /// The gains and offsets `mapToOriginal` uses: original = (input - offset) / gain.
    let mapGainX: Double, mapGainY: Double, mapOffsetX: Double, mapOffsetY: Double

    /// The geometry for an image of `width × height` under `options`, computed exactly as
    /// Ultralytics' `LetterBox.get_params` computes it (Python's round-half-even included).
    package init(width: Int, height: Int, options o: PreprocessOptions) {
        precondition(width > 0 && height > 0, "image dimensions must be positive, got \(width)x\(height)")
        let w = Double(width), h = Double(height)
        let tw = o.targetWidth, th = o.targetHeight
        mode = o.mode
        originalWidth = width
        originalHeight = height
        var cropL = 0, cropT = 0
        switch o.mode {
        case .letterbox, .square:
            var r = min(Double(th) / h, Double(tw) / w)
            if !o.scaleUp { r = min(r, 1) }
            let newW = max(pyRound(w * r), 1), newH = max(pyRound(h * r), 1)
            var dw = tw - newW, dh = th - newH
            if o.mode == .letterbox {
                dw = ((dw % o.stride) + o.stride) % o.stride  // np.mod
                dh = ((dh % o.stride) + o.stride) % o.stride
            }
            let halfW = Double(dw) / 2, halfH = Double(dh) / 2
            resizedWidth = newW
            resizedHeight = newH
            ratioX = r
            ratioY = r
            padTop = pyRound(halfH - 0.1)
            padBottom = pyRound(halfH + 0.1)
            padLeft = pyRound(halfW - 0.1)
            padRight = pyRound(halfW + 0.1)
        case .stretch:
            resizedWidth = tw
            resizedHeight = th
            ratioX = Double(tw) / w
            ratioY = Double(th) / h
            (padTop, padBottom, padLeft, padRight) = (0, 0, 0, 0)
        case .crop:
            let r = max(Double(th) / h, Double(tw) / w)
            // Guard against rounding leaving the scaled side a pixel short of the target.
            resizedWidth = max(pyRound(w * r), tw)
            resizedHeight = max(pyRound(h * r), th)
            ratioX = r
            ratioY = r
            (padTop, padBottom, padLeft, padRight) = (0, 0, 0, 0)
            cropL = (resizedWidth - tw) / 2
            cropT = (resizedHeight - th) / 2
        }
        cropLeft = cropL
        cropTop = cropT
        inputWidth = o.mode == .crop ? tw : resizedWidth + padLeft + padRight
        inputHeight = o.mode == .crop ? th : resizedHeight + padTop + padBottom

        switch o.mode {
        case .letterbox where o.scaleUp, .square where o.scaleUp:
            // What the predictor does: ops.scale_boxes(img1_shape=input, boxes, img0_shape=original)
            // recomputes gain and padding from the two shapes (ratio_pad=None).
            let gain = min(Double(inputHeight) / h, Double(inputWidth) / w)
            let newH = max(pyRound(h * gain), 1), newW = max(pyRound(w * gain), 1)
            mapGainY = Double(newH) / h
            mapGainX = Double(newW) / w
            mapOffsetX = Double(pyRound(Double(inputWidth - newW) / 2 - 0.1))
            mapOffsetY = Double(pyRound(Double(inputHeight - newH) / 2 - 0.1))
        case .letterbox, .square:
            mapGainX = ratioX
            mapGainY = ratioY
            mapOffsetX = Double(padLeft)
            mapOffsetY = Double(padTop)
        case .stretch:
            mapGainX = ratioX
            mapGainY = ratioY
            mapOffsetX = 0
            mapOffsetY = 0
        case .crop:
            mapGainX = Double(resizedWidth) / w
            mapGainY = Double(resizedHeight) / h
            mapOffsetX = -Double(cropL)
            mapOffsetY = -Double(cropT)
        }
    }

    /// A box in model-input pixels (x1, y1, x2, y2) mapped to original-image pixels and clipped to
    /// the image, as Ultralytics' `ops.scale_boxes` + `clip_boxes` do in float32 (letterbox and
    /// square: gain and padding recomputed from the two shapes, exactly as the predictor does).
    package func mapToOriginal(x1: Float, y1: Float, x2: Float, y2: Float)
        -> (x1: Float, y1: Float, x2: Float, y2: Float)
    {
        let gx = Float(mapGainX), gy = Float(mapGainY), ox = Float(mapOffsetX), oy = Float(mapOffsetY)
        let w = Float(originalWidth), h = Float(originalHeight)
        func clip(_ v: Float, _ upper: Float) -> Float { min(max(v, 0), upper) }
        return (clip((x1 - ox) / gx, w), clip((y1 - oy) / gy, h), clip((x2 - ox) / gx, w), clip((y2 - oy) / gy, h))
    }
}

/// Python 3's `round(x)` for a float: nearest integer, ties to even.
@inline(__always)
func pyRound(_ x: Double) -> Int { Int(x.rounded(.toNearestOrEven)) }

/// A model input: CHW float32 RGB in [0, 1] (`x / 255`), with the geometry that produced it.
package struct PreprocessedImage: Sendable {
    /// `[3, height, width]`, channel-major: all red, then green, then blue.
    package let chw: [Float]
    package let width: Int
    package let height: Int
    package let geometry: PreprocessGeometry
}

/// Turns decoded images into model inputs the way Ultralytics' predictor does: `LetterBox`
/// (OpenCV INTER_LINEAR resize, bit-exact; padding 114), BGR→RGB, HWC→CHW, `/ 255`.
package struct Preprocessor: Sendable {
    package var options: PreprocessOptions
    /// Where the resize's bands of rows and the CHW conversion's ranges run: one per thread.
    package var parallel: ParallelLoop
    /// The resize's and the CHW conversion's loops: compiled for any CPU, or a detector's kernel set's.
    package var kernels: ImageKernels

    package init(options: PreprocessOptions = PreprocessOptions(), parallel: ParallelLoop = .serial, kernels: ImageKernels = .portable) {
        self.options = options
        self.parallel = parallel
        self.kernels = kernels
    }

    /// The geometry for an image of the given size (no pixels touched).
    package func geometry(width: Int, height: Int) -> PreprocessGeometry {
        PreprocessGeometry(width: width, height: height, options: options)
    }

    /// The 8-bit canvas the model sees (what `LetterBox()(image=img)` returns, in RGB).
    package func canvas(for image: RGBImage) -> (canvas: RGBImage, geometry: PreprocessGeometry) {
        image.pixels.withUnsafeBytes { canvas(for: PixelBuffer.rgb(image, bytes: $0)) }
    }

    /// The 8-bit canvas the model sees for the pixels of `buffer`, read row by row as the resize
    /// needs them (converted to RGB one row at a time; the buffer itself is never copied).
    package func canvas(for buffer: PixelBuffer) -> (canvas: RGBImage, geometry: PreprocessGeometry) {
        let g = geometry(width: buffer.width, height: buffer.height)
        let (width, height, pad) = (g.inputWidth, g.inputHeight, options.padValue)
        let count = width * height * 3
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            guard let d = out.baseAddress else { return }  // never empty: the input sides are positive
            defer { initialized = count }
            // The window of the resized image that lands on the canvas, and where it lands; only the
            // padding around it is filled. Crop and stretch cover the whole canvas.
            let srcX0 = g.cropLeft, srcY0 = g.cropTop
            let dstX0 = g.padLeft, dstY0 = g.padTop
            let copyW = max(min(g.resizedWidth - srcX0, width - dstX0), 0)
            let copyH = max(min(g.resizedHeight - srcY0, height - dstY0), 0)
            guard copyW > 0 && copyH > 0 else {
                d.initialize(repeating: pad, count: count)
                return
            }
            d.initialize(repeating: pad, count: dstY0 * width * 3)
            for y in dstY0..<dstY0 + copyH {
                let line = d + y * width * 3
                line.initialize(repeating: pad, count: dstX0 * 3)
                (line + (dstX0 + copyW) * 3).initialize(repeating: pad, count: (width - dstX0 - copyW) * 3)
            }
            let below = (dstY0 + copyH) * width * 3
            (d + below).initialize(repeating: pad, count: count - below)
            // Only the visible window is resized: the whole scaled image can be enormous (a 1×60,000
            // strip covering a 640×640 square would be 640×38,400,000 pixels). Its rows are cut into
            // one band per thread; a band is a window of its own, the same pixels as in one resize.
            let rowLength = buffer.width * 3
            parallel.share(copyH) { bandRows in
                let firstRow = bandRows.lowerBound, rows = bandRows.count
                // Two rows of scratch for formats other than RGB8 (the resize uses at most two at once).
                let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * rowLength)
                defer { scratch.deallocate() }
                BilinearResize.resize(rows: { y, slot in buffer.rgbRow(y, scratch: scratch + slot * rowLength) },
                                      width: buffer.width, height: buffer.height, channels: 3,
                                      into: d + ((dstY0 + firstRow) * width + dstX0) * 3, rowStride: width * 3,
                                      width: g.resizedWidth, height: g.resizedHeight,
                                      window: (srcX0, srcY0 + firstRow, copyW, rows), kernels: kernels)
            }
        }
        return (RGBImage(width: width, height: height, pixels: pixels), g)
    }

    /// The model input for `image`: CHW float32 in [0, 1].
    package func preprocess(_ image: RGBImage) -> PreprocessedImage {
        let (canvas, g) = canvas(for: image)
        let chw = [Float](unsafeUninitializedCapacity: canvas.pixels.count) { buffer, count in
            Self.writeCHW(canvas, into: buffer, parallel: parallel, kernels: kernels)
            count = canvas.pixels.count
        }
        return PreprocessedImage(chw: chw, width: canvas.width, height: canvas.height, geometry: g)
    }

    /// Writes `canvas` as CHW float32 `x / 255` (RGB order) into `buffer`, which must hold at
    /// least `3 × height × width` floats — e.g. the input tensor's storage, to avoid a copy; one
    /// range of pixels per thread of `parallel`, by `kernels.planarFloats`.
    package static func writeCHW(_ canvas: RGBImage, into buffer: UnsafeMutableBufferPointer<Float>,
                                 parallel: ParallelLoop = .serial, kernels: ImageKernels = .portable) {
        let plane = canvas.width * canvas.height
        precondition(buffer.count >= plane * 3, "CHW buffer holds \(buffer.count) floats, needs \(plane * 3)")
        guard let out = buffer.baseAddress else { return }
        let lanes = 8  // the conversion's vector of pixels
        canvas.pixels.withUnsafeBufferPointer { src in
            guard let s = src.baseAddress else { return }
            // Ranges of whole vectors of pixels but the last.
            parallel.share((plane + lanes - 1) / lanes) { share in
                kernels.planarFloats(s, (share.lowerBound * lanes)..<min(share.upperBound * lanes, plane), plane, out)
            }
        }
    }
}
