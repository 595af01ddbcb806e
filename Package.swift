// swift-tools-version: 6.2
import PackageDescription

/// The SIMD kernels (`Sources/YOLOKernelsShared`, linked into each of these targets as `Kernels`)
/// compiled once per instruction set; the binary picks one at load (`YOLOKernelSets`). The per-set
/// compiler targets are why this manifest says 6.2: from that version a package that depends on
/// SwiftYOLO by version may use targets with unsafe flags.
let kernelSets: [(name: String, cpu: String?)] = {
    #if arch(x86_64)
    [("YOLOKernelsBaseline", nil), ("YOLOKernelsAVX2", "haswell"), ("YOLOKernelsAVX512", "skylake-avx512")]
    #else
    [("YOLOKernelsBaseline", nil)]
    #endif
}()
let kernelSetTargets: [Target] = kernelSets.map { set in
    .target(name: set.name, dependencies: ["YOLOKernels", "YOLOTensor", "CPrefetch"],
            swiftSettings: set.cpu.map { [.unsafeFlags(["-target-cpu", $0])] })
}

let package = Package(
    name: "SwiftYOLO",
    products: [
        .library(name: "SwiftYOLO", targets: ["SwiftYOLO"]),
        // Everything the CLI links, so that Fuzz/ can compile the CLI's commands for fuzzing.
        .library(name: "SwiftYOLOCommandLineDependencies", targets: ["SwiftYOLO", "SwiftYOLOVideo"]),
        .executable(name: "swift-yolo", targets: ["swift-yolo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // System libraries, found through pkg-config; `make` installs the apt providers.
        .systemLibrary(
            name: "CBLAS", path: "Sources/CBLAS", pkgConfig: "openblas",
            providers: [.apt(["libopenblas-dev"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CJPEG", path: "Sources/CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]),

        // Files and processes: lossless file names, regular-file checks, no-clobber atomic writes,
        // interrupts (with the few calls Swift cannot make safely, in C).
        .target(name: "CSystemCalls"),
        .target(name: "YOLOFileSystem", dependencies: ["CSystemCalls"]),

        // The engine.
        .target(name: "YOLOTensor"),
        // Software prefetch for the kernels (a static inline C function, which Swift inlines).
        .target(name: "CPrefetch"),
        // The kernels' types, weight packing and the table of a kernel set (`KernelSet`).
        .target(name: "YOLOKernels", dependencies: ["YOLOTensor", "CBLAS"]),
    ] + kernelSetTargets + [
        .target(name: "CCPUFeatures"),
        // The choice of a kernel set at load: SWIFTYOLO_KERNELS, else the widest the CPU runs.
        .target(name: "YOLOKernelSets", dependencies: ["YOLOKernels", "CCPUFeatures"] + kernelSetTargets.map { .target(name: $0.name) }),
        .target(name: "YOLOModel", dependencies: ["YOLOTensor", "YOLOKernels", "YOLOKernelSets", "YOLOFileSystem"]),

        // Images in, detections out.
        // setjmp-safe C wrappers: libpng and libjpeg report errors by longjmp, which Swift cannot catch.
        .target(name: "CImageCodecs", dependencies: ["CPNG", "CJPEG"]),
        .target(name: "YOLOImage", dependencies: ["CImageCodecs", "YOLOFileSystem"]),
        .target(name: "YOLODetect", dependencies: ["YOLOFileSystem"]),

        // The public facade and the command-line tool.
        .target(name: "SwiftYOLO", dependencies: ["YOLOTensor", "YOLOModel", "YOLOImage", "YOLODetect"]),
        // Video streams and the recipes around a detector: tracking, settle events, rotation passes.
        .target(name: "YOLOVideo", dependencies: ["YOLOImage", "YOLOFileSystem"]),
        .target(name: "YOLORecipes", dependencies: ["YOLODetect", "YOLOImage"]),
        .target(name: "SwiftYOLOVideo", dependencies: ["SwiftYOLO", "YOLOVideo", "YOLORecipes"]),
        .executableTarget(
            name: "swift-yolo",
            dependencies: ["SwiftYOLO", "SwiftYOLOVideo", "YOLOModel", "YOLOKernels", "YOLOImage", "YOLOFileSystem", .product(name: "ArgumentParser", package: "swift-argument-parser")]),

        // Helpers shared by the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "YOLOFileSystemTests", dependencies: ["YOLOFileSystem", "TestSupport"]),
        .testTarget(name: "YOLOKernelsTests", dependencies: ["YOLOKernels", "YOLOKernelSets", "TestSupport"]),
        .testTarget(name: "YOLOModelTests", dependencies: ["YOLOModel", "TestSupport"]),
        .testTarget(name: "YOLOImageTests", dependencies: ["YOLOImage", "TestSupport"]),
        .testTarget(name: "YOLODetectTests", dependencies: ["YOLODetect", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SwiftYOLOTests", dependencies: ["SwiftYOLO", "swift-yolo", "YOLOFileSystem", "YOLOKernelSets", "TestSupport"]),
        .testTarget(name: "YOLOVideoTests", dependencies: ["YOLOVideo", "YOLOImage", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "YOLORecipesTests", dependencies: ["YOLORecipes", "YOLODetect", "YOLOImage"]),
        .testTarget(name: "SwiftYOLOVideoTests", dependencies: ["SwiftYOLOVideo", "swift-yolo", "TestSupport"]),
    ]
)
