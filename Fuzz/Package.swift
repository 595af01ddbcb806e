// swift-tools-version: 6.1
// Coverage-guided fuzz targets for SwiftYOLO (libFuzzer). A package of its own, so that the main
// package never needs `-sanitize=fuzzer`; it is built only by `make fuzz-build` (and `make fuzz`,
// `make fuzz-ci`), with the flags of FUZZ_BUILD_FLAGS in the Makefile:
//
//   swift build --package-path Fuzz --scratch-path .build-fuzz -c release --sanitize=fuzzer \
//       -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address
//
// Each `fuzz-*` executable defines `LLVMFuzzerTestOneInput`; libFuzzer supplies `main`.
import PackageDescription

let package = Package(
    name: "SwiftYOLOFuzz",
    dependencies: [
        .package(name: "SwiftYOLO", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "SwiftYOLO", package: "SwiftYOLO")]),
        // The PNG/JPEG decoders (with EXIF orientation) and preprocessing of what they decode.
        .executableTarget(name: "fuzz-image", dependencies: ["FuzzSupport"]),
        // The weights-file reader (TensorFile) and the model built from whatever it accepts.
        .executableTarget(name: "fuzz-weights", dependencies: ["FuzzSupport"]),
        // The model description (JSON metadata: yaml, scales, strides, names) over fixed tensors.
        .executableTarget(name: "fuzz-model", dependencies: ["FuzzSupport"]),
        // The CLI's option parsing: the real command types, compiled from Sources/swift-yolo
        // (a symlink) with their `@main` entry point renamed so that libFuzzer's `main` runs.
        .target(
            name: "SwiftYOLOCLI",
            dependencies: [
                .product(name: "SwiftYOLOCommandLineDependencies", package: "SwiftYOLO"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.unsafeFlags(["-enable-testing", "-Xfrontend", "-entry-point-function-name",
                                          "-Xfrontend", "swift_yolo_cli_main"])]),
        .executableTarget(name: "fuzz-cli", dependencies: ["SwiftYOLOCLI", "FuzzSupport"]),
    ]
)
