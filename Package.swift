// swift-tools-version: 6.2
import PackageDescription

/// The SIMD kernels (`Sources/YOLOKernelsShared`, linked into each of these targets as `Kernels`)
/// compiled once per instruction set; the binary picks one at load (`YOLOKernelSets`). The per-set
/// compiler targets are why this manifest says 6.2: from that version a package that depends on
/// SwiftYOLO by version may use targets with unsafe flags. Debug builds optimize the kernel sets
/// too (`-O`): unoptimized, they make a forward pass in a debug build of an app over ten times slower.
let kernelSets: [(name: String, cpu: String?)] = {
    #if arch(x86_64)
    [("YOLOKernelsBaseline", nil), ("YOLOKernelsAVX2", "haswell"), ("YOLOKernelsAVX512", "skylake-avx512")]
    #else
    [("YOLOKernelsBaseline", nil)]
    #endif
}()
let kernelSetTargets: [Target] = kernelSets.map { set in
    .target(name: set.name, dependencies: ["YOLOKernels", "YOLOTensor", "CPrefetch"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))] + (set.cpu.map { [.unsafeFlags(["-target-cpu", $0])] } ?? []))
}

/// `swift-yolo serve` (Hummingbird, SwiftNIO, swift-prometheus). `SWIFTYOLO_SERVER=0` leaves it
/// out, for the builds that check everything else (AddressSanitizer, the fuzz targets) without
/// compiling SwiftNIO once more.
let withServer = Context.environment["SWIFTYOLO_SERVER"] != "0"

let package = Package(
    name: "SwiftYOLO",
    products: [
        // `import SwiftYOLO`: the detector, its options, results and errors, images and pixel buffers.
        // Everything else is `package`: the engine's types are no part of the API.
        .library(name: "SwiftYOLO", targets: ["SwiftYOLO"]),
        // `import SwiftYOLOVideo`: SwiftYOLO with streams (Y4M, image directories), the pipeline that
        // samples, tracks and tells when a scene settles, rotation passes and the flat array layout.
        .library(name: "SwiftYOLOVideo", targets: ["SwiftYOLOVideo"]),
        .executable(name: "swift-yolo", targets: ["swift-yolo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ] + (withServer ? [
        // `swift-yolo serve` only; the SwiftYOLO library never builds them. No default traits: the
        // server reads no configuration files and needs none of Foundation's extras.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ] : []),
    targets: [
        // System libraries, found through pkg-config; `make` installs the apt providers.
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CJPEG", path: "Sources/CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]),

        // Files and processes: lossless file names, regular-file checks, no-clobber atomic writes,
        // interrupts, the CPUs a process may use (with the few calls Swift cannot make safely, in C).
        .target(name: "CSystemCalls"),
        .target(name: "YOLOFileSystem", dependencies: ["CSystemCalls", "YOLOPlatform"]),
        // Threads, locks and printf's number formatting from the C library: the few things the
        // engine would otherwise take from Foundation, which would link ICU's data (about 40 MB of
        // the static binary) where FoundationEssentials serves the rest.
        .target(name: "YOLOPlatform", dependencies: ["CSystemCalls"]),

        // The engine. Tensors take their storage from one arena (`BufferPool`), which tells
        // AddressSanitizer which of its ranges no tensor holds.
        .target(name: "CAddressSanitizer"),
        .target(name: "YOLOTensor", dependencies: ["CAddressSanitizer", "CSystemCalls", "YOLOPlatform"]),
        // Software prefetch for the kernels (a static inline C function, which Swift inlines).
        .target(name: "CPrefetch"),
        // The kernels' types, weight packing and the table of a kernel set (`KernelSet`).
        .target(name: "YOLOKernels", dependencies: ["YOLOTensor", "CSystemCalls", "YOLOPlatform"]),
    ] + kernelSetTargets + [
        .target(name: "CCPUFeatures"),
        // The choice of a kernel set at load: SWIFTYOLO_KERNELS, else the widest the CPU runs.
        .target(name: "YOLOKernelSets", dependencies: ["YOLOKernels", "CCPUFeatures", "YOLOPlatform"] + kernelSetTargets.map { .target(name: $0.name) }),
        .target(name: "YOLOModel", dependencies: ["YOLOTensor", "YOLOKernels", "YOLOKernelSets", "YOLOFileSystem"]),

        // Images in, detections out.
        // setjmp-safe C wrappers: libpng and libjpeg report errors by longjmp, which Swift cannot catch.
        .target(name: "CImageCodecs", dependencies: ["CPNG", "CJPEG"]),
        .target(name: "YOLOImage", dependencies: ["CImageCodecs", "YOLOFileSystem", "YOLOKernels", "YOLOPlatform"]),
        .target(name: "YOLODetect", dependencies: ["YOLOFileSystem", "YOLOPlatform"]),

        // The public facade and the command-line tool.
        .target(name: "SwiftYOLO", dependencies: ["YOLOTensor", "YOLOKernels", "YOLOModel", "YOLOImage", "YOLODetect"]),
        // Video streams and the recipes around a detector: tracking, settle events, rotation passes.
        .target(name: "YOLOVideo", dependencies: ["YOLOImage", "YOLOFileSystem"]),
        .target(name: "YOLORecipes", dependencies: ["YOLODetect", "YOLOImage"]),
        .target(name: "SwiftYOLOVideo", dependencies: ["SwiftYOLO", "YOLOVideo", "YOLORecipes"]),
        // What crosses the wire: the JSON of a result (detect --json, /v1/detect), the KServe v2
        // request and response, multipart form data, options from a query string.
        .target(name: "YOLOServing", dependencies: ["SwiftYOLO", "YOLORecipes", "YOLOFileSystem", "YOLOPlatform"]),
        // The commit a build was made from, for --version (the Makefile defines it for release builds).
        .target(name: "CBuildInfo"),
        // The command-line tool's commands, a library so that tests and fuzz targets use them as they are.
        .target(
            name: "SwiftYOLOCommands",
            dependencies: ["SwiftYOLO", "SwiftYOLOVideo", "YOLOModel", "YOLOKernels", "YOLOImage", "YOLOFileSystem", "YOLOServing", "YOLOPlatform", "CBuildInfo",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")] + (withServer ? ["SwiftYOLOServer"] : [])),
        .executableTarget(name: "swift-yolo", dependencies: ["SwiftYOLOCommands"]),

        // Helpers shared by the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "YOLOFileSystemTests", dependencies: ["YOLOFileSystem", "TestSupport"]),
        .testTarget(name: "YOLOPlatformTests", dependencies: ["YOLOPlatform"]),
        .testTarget(name: "YOLOTensorTests", dependencies: ["YOLOTensor", "CAddressSanitizer"]),
        .testTarget(name: "YOLOKernelsTests", dependencies: ["YOLOKernels", "YOLOKernelSets", "YOLOModel", "TestSupport"]),
        .testTarget(name: "YOLOModelTests", dependencies: ["YOLOModel", "TestSupport"]),
        .testTarget(name: "YOLOImageTests", dependencies: ["YOLOImage", "TestSupport"]),
        .testTarget(name: "YOLODetectTests", dependencies: ["YOLODetect", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SwiftYOLOTests", dependencies: ["SwiftYOLO", "SwiftYOLOCommands", "swift-yolo", "YOLOVideo", "YOLOFileSystem", "YOLOKernelSets", "TestSupport"]),
        .testTarget(name: "YOLOVideoTests", dependencies: ["YOLOVideo", "YOLOImage", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "YOLORecipesTests", dependencies: ["YOLORecipes", "YOLODetect", "YOLOImage"]),
        .testTarget(name: "SwiftYOLOVideoTests", dependencies: ["SwiftYOLOVideo", "SwiftYOLOCommands", "swift-yolo", "TestSupport"]),
        .testTarget(name: "YOLOServingTests", dependencies: ["YOLOServing", "SwiftYOLO", "TestSupport"]),
    ]
)

if withServer {
    package.targets += [
        // The HTTP server of `swift-yolo serve`: routes, the inference queue, limits, metrics.
        .target(name: "SwiftYOLOServer", dependencies: [
            "SwiftYOLO", "YOLOServing", "YOLOModel", "YOLOPlatform",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "SwiftYOLOServerTests", dependencies: ["SwiftYOLOServer", "YOLOServing", "SwiftYOLO", "TestSupport",
                                                                 .product(name: "Hummingbird", package: "hummingbird")]),
    ]
}

// The documentation (Sources/SwiftYOLO/SwiftYOLO.docc) is built with swift-docc-plugin, declared
// only for `make docs` (SWIFTYOLO_DOCS=1) so that packages depending on SwiftYOLO never fetch it.
if Context.environment["SWIFTYOLO_DOCS"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"))
}

// Development executables: they use the engine's `package` declarations, so they belong to this
// package, but they are declared only when asked for, so that a package depending on SwiftYOLO
// never sees them and `swift build` here never builds them.
//
//   SWIFTYOLO_FUZZ=1        the libFuzzer targets (Fuzz/Sources; `make fuzz-build`)
//   SWIFTYOLO_RELIABILITY=1 the whole-stack reliability runs: one Detector shared by many threads,
//                           and a long run of mixed-size images watching resident memory
//                           (Benchmarks/Reliability; Benchmarks/concurrency.sh and soak.sh)
//   SWIFTYOLO_BENCHMARKS=1  the forward-pass worker of Benchmarks/peers.py (`make bench-peers`), the
//                           mask-assembly timing (`make bench-masks`) and the kernel benchmarks
//                           (ordo-one/benchmark; `make bench-kernels`)
let environment = Context.environment
if environment["SWIFTYOLO_FUZZ"] == "1" {
    // A fuzz target is an ordinary executable whose `main` hands its test function to libFuzzer
    // (FuzzSupport's `Fuzz.run`), linked with libFuzzer without libFuzzer's own `main`:
    // SWIFTYOLO_LIBFUZZER is the path of clang's libclang_rt.fuzzer_no_main (the Makefile sets it).
    // Any other executable in that build keeps its own `main`, which SwiftPM's `--sanitize=fuzzer`
    // would not allow, so the fuzz targets can be part of the AddressSanitizer build of the tests
    // (`make sanitize-address`, `make fuzz-ci`) as well as of a build of their own (`make fuzz-build`).
    let libFuzzer = environment["SWIFTYOLO_LIBFUZZER"] ?? "libclang_rt.fuzzer_no_main.a (SWIFTYOLO_LIBFUZZER is not set)"
    func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
        .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies, path: "Fuzz/Sources/\(name)",
                          linkerSettings: [.unsafeFlags(["-Xlinker", libFuzzer, "-lstdc++"])])
    }
    package.targets += [
        .target(name: "CFuzzerDriver", path: "Fuzz/Sources/CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver", "SwiftYOLO", "YOLOModel", "YOLOImage"], path: "Fuzz/Sources/FuzzSupport"),
        // The PNG/JPEG decoders (with EXIF orientation) and preprocessing of what they decode.
        fuzzTarget("fuzz-image", ["YOLOImage"]),
        // The weights-file reader (TensorFile) and the model built from whatever it accepts.
        fuzzTarget("fuzz-weights", ["YOLOModel"]),
        // The model description (JSON metadata: yaml, scales, strides, names) over fixed tensors.
        fuzzTarget("fuzz-model", ["YOLOModel"]),
        // The command line's parsing and validation, on the real command types.
        fuzzTarget("fuzz-cli", ["SwiftYOLOCommands", "YOLODetect", "YOLOFileSystem",
                                .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // What `serve` parses from a request: multipart bodies, KServe v2 JSON, query options.
        fuzzTarget("fuzz-request", ["YOLOServing", "SwiftYOLO"]),
        // YUV4MPEG2 streams (`swift-yolo video`'s input) and their frames' conversion to RGB.
        fuzzTarget("fuzz-video", ["YOLOVideo", "YOLOImage"]),
        // Saved results read back: `DetectionResult` from JSON, masks, keypoints and timings.
        fuzzTarget("fuzz-result", ["SwiftYOLO"]),
    ]
    // libFuzzer's guidance, the coverage that `-sanitize=fuzzer` would add (8-bit edge counters and
    // their table, indirect calls, comparisons), on the code that parses what the fuzz targets feed
    // it, and only there: in the per-pixel and per-element loops of the kernels, the tasks'
    // post-processing and the tensors, it guides nothing and made the AddressSanitizer tests of the
    // same build three times as long (docs/reliability.md). Per target, because a flag given to the
    // whole build cannot be taken back for some targets: SwiftPM puts `-Xswiftc` flags after the targets'.
    let parsers: Set = ["YOLOFileSystem", "CImageCodecs", "YOLOImage", "YOLOModel", "YOLODetect", "YOLOVideo", "YOLOServing",
                        "SwiftYOLOCommands", "FuzzSupport", "fuzz-image", "fuzz-weights", "fuzz-model", "fuzz-cli", "fuzz-request", "fuzz-video", "fuzz-result"]
    for target in package.targets where parsers.contains(target.name) {
        if target.name == "CImageCodecs" {
            target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-fsanitize-coverage=indirect-calls,inline-8bit-counters,pc-table,trace-cmp"])]
        } else {
            target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize-coverage=edge,indirect-calls,inline-8bit-counters,pc-table,trace-cmp"])]
        }
    }
}
if environment["SWIFTYOLO_RELIABILITY"] == "1" {
    package.targets += [
        .target(name: "ReliabilitySupport", dependencies: ["SwiftYOLO"], path: "Benchmarks/Reliability/Sources/ReliabilitySupport"),
        .executableTarget(name: "concurrency", dependencies: ["ReliabilitySupport", "SwiftYOLO"], path: "Benchmarks/Reliability/Sources/concurrency"),
        // Writes its mixed sizes with the engine's own resize and PNG encoder (`package` declarations).
        .executableTarget(name: "soak", dependencies: ["ReliabilitySupport", "SwiftYOLO", "YOLOImage"], path: "Benchmarks/Reliability/Sources/soak"),
    ]
}
if environment["SWIFTYOLO_BENCHMARKS"] == "1" {
    // MallocInterposer only: the RuntimeInterposer trait (on by default with Swift 6.3) needs a
    // package that the mirror does not carry.
    package.dependencies.append(.package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]))
    package.targets += [
        .executableTarget(name: "swiftyolo-peer", dependencies: ["YOLOModel", "YOLOKernels", "YOLODetect"], path: "Benchmarks/Support/swiftyolo-peer"),
        // What masks cost beside the forward pass (`make bench-masks`).
        .executableTarget(name: "mask-assembly", dependencies: ["SwiftYOLO", "YOLOModel", "YOLOKernels", "YOLOImage", "YOLODetect"],
                          path: "Benchmarks/Support/mask-assembly"),
        // The benchmark plugin runs the executable targets whose folder sits in a folder named `Benchmarks`.
        .executableTarget(name: "Kernels", dependencies: ["YOLOKernels", "YOLOKernelSets", .product(name: "Benchmark", package: "benchmark")],
                          path: "Benchmarks/Kernels", plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
}
