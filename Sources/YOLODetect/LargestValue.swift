extension Array where Element == Float {
    /// The `rank`-th largest element (1 for the largest), as `sorted(by: >)[rank - 1]` gives it, by
    /// selection instead of a sort: Hoare's partition around the median of three, into the part that
    /// holds the rank, in the array's own storage where the caller hands over its only reference
    /// (as `map(_:).largest(rank:)` does), else in a copy. Linear on average where the sort takes
    /// `n log n`: the end-to-end selection ranks every anchor's best score this way (8,400 at
    /// 640 × 640 with no confidence floor, as an exported end-to-end model does).
    /// - Precondition: `1 ≤ rank ≤ count`, and no element is NaN (which has no place in the order).
    package consuming func largest(rank: Int) -> Float {
        precondition(rank >= 1 && rank <= count, "rank \(rank) of \(count) values")
        var values = consume self
        return values.withUnsafeMutableBufferPointer { values in
            // The rank-th largest is the element at `target` in ascending order.
            let target = values.count - rank
            var (low, high) = (0, values.count - 1)
            while low < high {
                let middle = low + (high - low) / 2
                // The median of the first, middle and last as the pivot.
                if values[middle] < values[low] { values.swapAt(middle, low) }
                if values[high] < values[low] { values.swapAt(high, low) }
                if values[high] < values[middle] { values.swapAt(high, middle) }
                let pivot = values[middle]
                var (i, j) = (low, high)
                while i <= j {
                    while values[i] < pivot { i += 1 }
                    while pivot < values[j] { j -= 1 }
                    if i <= j {
                        values.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                // Now values[low...j] ≤ pivot ≤ values[i...high], and any between equal the pivot.
                if target <= j {
                    high = j
                } else if target >= i {
                    low = i
                } else {
                    return pivot
                }
            }
            return values[target]
        }
    }
}
