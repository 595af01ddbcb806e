extension InstanceMask {
    /// The outline of the mask's largest 8-connected piece, as the image pixels along its outer
    /// boundary in clockwise order (Moore-neighbour tracing), without repeating the first. Empty for
    /// an empty mask; holes are not traced.
    public func polygon() -> [(x: Int, y: Int)] {
        guard let component = largestComponent() else { return [] }
        let width = regionWidth, height = regionHeight
        func inside(_ x: Int, _ y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height && component[y * width + x] }
        // The first pixel in raster order; its west neighbour is outside.
        guard let first = component.firstIndex(of: true) else { return [] }
        let start = (x: first % width, y: first / width)
        // Clockwise in image coordinates (y down), from west.
        let directions = [(-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1)]
        var outline = [start]
        var current = start, cameFrom = 0  // the direction, from `current`, of the last outside pixel checked
        let initial = (current: start, cameFrom: 0)
        for _ in 0..<(8 * component.count + 8) {
            var moved = false
            for step in 1...8 {
                let k = (cameFrom + step) % 8
                let candidate = (x: current.x + directions[k].0, y: current.y + directions[k].1)
                guard inside(candidate.x, candidate.y) else { continue }
                // The pixel checked just before, seen from the new position, is where to resume.
                let previous = (cameFrom + step - 1) % 8
                let back = (x: current.x + directions[previous].0 - candidate.x, y: current.y + directions[previous].1 - candidate.y)
                cameFrom = directions.firstIndex { $0 == (back.x, back.y) } ?? 0
                current = candidate
                moved = true
                break
            }
            guard moved, !(current == initial.current && cameFrom == initial.cameFrom) else { break }
            outline.append(current)
        }
        if outline.count > 1, outline[outline.count - 1] == start { outline.removeLast() }
        return outline.map { (regionX + $0.x, regionY + $0.y) }
    }

    /// The largest 8-connected set of mask pixels, over the region.
    private func largestComponent() -> [Bool]? {
        let width = regionWidth, height = regionHeight
        var label = [Int32](repeating: 0, count: regionBits.count)
        var best: (label: Int32, size: Int) = (0, 0)
        var next: Int32 = 0
        var stack: [Int] = []
        for seed in regionBits.indices where regionBits[seed] != 0 && label[seed] == 0 {
            next += 1
            label[seed] = next
            stack.append(seed)
            var size = 0
            while let p = stack.popLast() {
                size += 1
                let x = p % width, y = p / width
                for dy in -1...1 {
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
                        let q = ny * width + nx
                        if regionBits[q] != 0 && label[q] == 0 {
                            label[q] = next
                            stack.append(q)
                        }
                    }
                }
            }
            if size > best.size { best = (next, size) }
        }
        guard best.size > 0 else { return nil }
        return label.map { $0 == best.label }
    }
}
