// swift-tools-version: 6.1
// A package that uses SwiftYOLO as any other package would: by version, with a plain
// `swift build -c release` and no flags of its own. `make consumer` (and CI) builds it against a
// tagged clone of this repository and checks that it gets the fast kernels.
//
// SWIFTYOLO_URL names the repository (default: the public one); SWIFTYOLO_VERSION the lowest version.
import PackageDescription

let url = Context.environment["SWIFTYOLO_URL"] ?? "https://github.com/swiftyolo/SwiftYOLO"
let version = Version(Context.environment["SWIFTYOLO_VERSION"] ?? "0.1.0") ?? "0.1.0"

let package = Package(
    name: "consumer",
    dependencies: [.package(url: url, from: version)],
    targets: [
        .executableTarget(name: "consumer", dependencies: [.product(name: "SwiftYOLO", package: "SwiftYOLO")]),
        // The video API's example (docs/video.md) on a directory of frames.
        .executableTarget(name: "video-recipes", dependencies: [.product(name: "SwiftYOLOVideo", package: "SwiftYOLO")]),
    ]
)
