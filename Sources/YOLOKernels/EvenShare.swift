/// Share `index` of `shares` contiguous shares of `count` things (iterations, channels, rows,
/// panels): from `count · index / shares` up to the next share's start, so that the shares' sizes
/// differ by one at most and together cover `0..<count` once.
@inlinable
package func evenShare(_ index: Int, of shares: Int, count: Int) -> Range<Int> {
    (count * index / shares)..<(count * (index + 1) / shares)
}
