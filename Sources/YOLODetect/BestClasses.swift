/// The best class of every anchor in a head's score rows, as `scores.max(1)` finds it in
/// Ultralytics' post-processing: the first maximum, walking the rows `[nc, A]` in memory order.
/// `sawNaN` marks the anchors with a NaN score, whose maximum torch takes to be NaN.
package struct BestClasses {
    package var score: [Float]
    package var classId: [Int]
    package var sawNaN: [Bool]

    /// - Parameter head: `(4 + classCount + extra rows) × anchorCount` floats; rows 4… are the scores.
    package init(head: UnsafeBufferPointer<Float>, classCount nc: Int, anchorCount a: Int) {
        score = Array(head[(4 * a)..<(5 * a)])
        classId = [Int](repeating: 0, count: a)
        sawNaN = score.map(\.isNaN)
        for c in 1..<max(nc, 1) {
            let row = (4 + c) * a
            for anchor in 0..<a {
                let s = head[row + anchor]
                if s > score[anchor] {
                    score[anchor] = s
                    classId[anchor] = c
                } else if s.isNaN {
                    sawNaN[anchor] = true
                }
            }
        }
    }
}
