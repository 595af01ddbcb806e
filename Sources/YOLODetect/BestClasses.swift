/// The best class of every anchor in a head's score rows, as `scores.max(1)` finds it in
/// Ultralytics' post-processing: the first maximum, walking the rows `[nc, A]` in memory order.
/// `sawNaN` marks the anchors with a NaN score, whose maximum torch takes to be NaN.
package struct BestClasses {
    package var score: [Float]
    package var classId: [Int]
    package var sawNaN: [Bool]

    /// - Parameter head: `(4 + classCount + extra rows) × anchorCount` floats; rows 4… are the scores.
    package init(head: UnsafeBufferPointer<Float>, classCount nc: Int, anchorCount a: Int) {
        precondition(nc >= 1 && a >= 0 && head.count >= (4 + nc) * a, "a head of \(head.count) floats for \(nc) classes × \(a) anchors")
        var score = Array(head[(4 * a)..<(5 * a)])
        var best = [Int32](repeating: 0, count: a)
        var nan = score.map { Int32($0.isNaN ? -1 : 0) }
        if a > 0, let scores = head.baseAddress.map({ $0 + 4 * a }) {  // then no buffer below is empty
            score.withUnsafeMutableBufferPointer { score in
                best.withUnsafeMutableBufferPointer { best in
                    nan.withUnsafeMutableBufferPointer { nan in
                        for c in 1..<nc {
                            Self.update(score.baseAddress!, best.baseAddress!, nan.baseAddress!,
                                        with: scores + c * a, classId: Int32(c), anchors: a)
                        }
                    }
                }
            }
        }
        self.score = score
        self.classId = best.map { Int($0) }
        self.sawNaN = nan.map { $0 != 0 }
    }

    /// Folds class `classId`'s score row into the running maxima, eight anchors at a time: a score
    /// takes over only where it is higher (so the first maximum stays), and a NaN is remembered.
    private static func update(_ score: UnsafeMutablePointer<Float>, _ best: UnsafeMutablePointer<Int32>,
                               _ nan: UnsafeMutablePointer<Int32>, with row: UnsafePointer<Float>, classId: Int32, anchors: Int) {
        typealias Scores = SIMD8<Float>
        typealias Flags = SIMD8<Int32>
        var anchor = 0
        while anchor + Scores.scalarCount <= anchors {
            let s = UnsafeRawPointer(row + anchor).loadUnaligned(as: Scores.self)
            let current = UnsafeRawPointer(score + anchor).loadUnaligned(as: Scores.self)
            let higher = s .> current
            UnsafeMutableRawPointer(score + anchor).storeBytes(of: current.replacing(with: s, where: higher), as: Scores.self)
            let id = UnsafeRawPointer(best + anchor).loadUnaligned(as: Flags.self)
            UnsafeMutableRawPointer(best + anchor).storeBytes(of: id.replacing(with: classId, where: higher), as: Flags.self)
            let seen = UnsafeRawPointer(nan + anchor).loadUnaligned(as: Flags.self)
            UnsafeMutableRawPointer(nan + anchor).storeBytes(of: seen.replacing(with: -1, where: s .!= s), as: Flags.self)
            anchor += Scores.scalarCount
        }
        for anchor in anchor..<anchors {
            let s = row[anchor]
            if s > score[anchor] {
                score[anchor] = s
                best[anchor] = classId
            } else if s.isNaN {
                nan[anchor] = -1
            }
        }
    }
}
