import Foundation
import Testing
import YOLOPlatform

/// `String(cFormat:)` against Foundation's `String(format:)`, which it replaces in the sources:
/// the same text for every format the package uses, and for results longer than its first buffer.
@Suite struct CFormatTests {
    @Test func numbersAreFormattedAsFoundationFormatsThem() {
        let values: [Double] = [0, 0.004999, 0.005, 0.015, 0.125, 1.5, 2.5, -0.0, -1.005, 12.345678, 1e-7, 123_456.789, 1e21, .infinity, -.infinity, .nan]
        for format in ["%.2f", "%.3f", "%.1f", "%.6f", "%.3g", "%.1f%%"] {
            for value in values {
                #expect(String(cFormat: format, value) == String(format: format, value), "\(format) of \(value)")
            }
        }
        for value in [0, 7, 123_456, 1_234_567] {
            #expect(String(cFormat: "frame_%06d", value) == String(format: "frame_%06d", value))
        }
        let line = "forward pass: median %.2f ms, min %.2f ms, max %.2f ms (%.2f GFLOP, %.1f GFLOP/s)"
        #expect(String(cFormat: line, 74.857, 71.2, 150.85, 6.54, 87.36) == String(format: line, 74.857, 71.2, 150.85, 6.54, 87.36))
    }

    /// Over the 128 bytes of the first attempt (and exactly at its edge), formatted again in full.
    @Test func longResultsAreWhole() {
        for width in [100, 126, 127, 128, 129, 300, 5000] {
            let text = String(cFormat: "%0\(width).3f", 1.5)
            #expect(text.count == width && text.hasSuffix("1.500") && text.hasPrefix(width > 5 ? "0" : "1"), "width \(width)")
        }
        #expect(String(cFormat: "no arguments") == "no arguments")
    }
}
