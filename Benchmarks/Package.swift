// swift-tools-version: 6.2
// Benchmarks for SwiftYOLO, kept out of the main package so that building or testing SwiftYOLO never
// pulls in ordo-one/benchmark:
//
//   Kernels          ordo-one/benchmark targets: the kernels on YOLO11n's real 640×640 layer shapes,
//                    time and GFLOP/s (`make bench-kernels`).
//   swiftyolo-peer   a persistent SwiftYOLO forward-pass worker, driven over stdin/stdout by
//                    peers.py so that SwiftYOLO is timed exactly like the Python peers
//                    (`make bench-peers`).
import Foundation
import PackageDescription

// The main package is one directory up; SwiftPM names a path dependency after its directory,
// whatever the clone is called.
let mainPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "SwiftYOLOBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        // MallocInterposer only: the RuntimeInterposer trait (on by default with Swift 6.3) needs a
        // package that the mirror does not carry.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The benchmark plugin runs every executable target whose folder sits in a folder named
        // `Benchmarks` (this one).
        .executableTarget(
            name: "Kernels",
            dependencies: [
                // YOLOKernels is not a product of the main package; it comes in with SwiftYOLO.
                .product(name: "SwiftYOLO", package: mainPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Kernels",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "swiftyolo-peer",
            dependencies: [.product(name: "SwiftYOLO", package: mainPackage)],
            path: "Support/swiftyolo-peer"),
    ]
)
