// swift-tools-version: 6.1
import PackageDescription

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
        .target(name: "YOLOKernels", dependencies: ["YOLOTensor", "CBLAS", "CPrefetch"]),
        .target(name: "YOLOModel", dependencies: ["YOLOTensor", "YOLOKernels", "YOLOFileSystem"]),

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
        .testTarget(name: "YOLOKernelsTests", dependencies: ["YOLOKernels", "TestSupport"]),
        .testTarget(name: "YOLOModelTests", dependencies: ["YOLOModel", "TestSupport"]),
        .testTarget(name: "YOLOImageTests", dependencies: ["YOLOImage", "TestSupport"]),
        .testTarget(name: "YOLODetectTests", dependencies: ["YOLODetect", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SwiftYOLOTests", dependencies: ["SwiftYOLO", "swift-yolo", "YOLOFileSystem", "TestSupport"]),
        .testTarget(name: "YOLOVideoTests", dependencies: ["YOLOVideo", "YOLOImage", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "YOLORecipesTests", dependencies: ["YOLORecipes", "YOLODetect", "YOLOImage"]),
        .testTarget(name: "SwiftYOLOVideoTests", dependencies: ["SwiftYOLOVideo", "swift-yolo", "TestSupport"]),
    ]
)
