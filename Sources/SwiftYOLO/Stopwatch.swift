/// Runs `body` and adds the time it took to `duration`.
package func measure<T>(_ duration: inout Duration, _ body: () throws -> T) rethrows -> T {
    let clock = ContinuousClock()
    let start = clock.now
    defer { duration += clock.now - start }
    return try body()
}

extension Duration {
    /// The duration in milliseconds, for reports.
    package var milliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }

    /// The whole duration in nanoseconds (saturating), for NIO's `TimeAmount`.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product &+ attoseconds / 1_000_000_000
    }
}
