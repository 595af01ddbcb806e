// swift-tools-version: 6.1
// Whole-stack reliability runs (README, "Reliability"): one Detector shared by many threads, and a
// long run of mixed-size images watching resident memory. A package of its own beside the kernel
// benchmarks, so neither pulls in the other's dependencies. Run through Benchmarks/concurrency.sh
// and Benchmarks/soak.sh (release builds in .build-reliability).
import PackageDescription

let package = Package(
    name: "SwiftYOLOReliability",
    dependencies: [.package(name: "SwiftYOLO", path: "../..")],
    targets: [
        .target(name: "ReliabilitySupport", dependencies: [.product(name: "SwiftYOLO", package: "SwiftYOLO")]),
        .executableTarget(name: "concurrency", dependencies: ["ReliabilitySupport"]),
        .executableTarget(name: "soak", dependencies: ["ReliabilitySupport"]),
    ]
)
