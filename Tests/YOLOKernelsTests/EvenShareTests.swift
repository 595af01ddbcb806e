import Testing
import YOLOKernels

/// The contiguous shares that jobs cut their work into: every thing once, in order, the shares'
/// sizes within one of each other.
@Suite struct EvenShareTests {
    @Test func sharesCoverEveryThingOnceAndEvenly() {
        for shares in 1...5 {
            for count in 0...23 {
                let ranges = (0..<shares).map { evenShare($0, of: shares, count: count) }
                #expect(ranges.flatMap { Array($0) } == Array(0..<count), "\(count) in \(shares) shares: \(ranges)")
                #expect(ranges.allSatisfy { $0.count == count / shares || $0.count == count / shares + 1 },
                        "\(count) in \(shares) shares: \(ranges)")
            }
        }
    }
}
