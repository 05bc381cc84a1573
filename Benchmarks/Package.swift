// swift-tools-version:6.0
import PackageDescription

// Benchmarks for RxUV, in their own package so that comparison dependencies
// (OpenCombine) never reach the library targets. Run from the repository
// root with `make benchmarks` (release build).
let package = Package(
    name: "RxUVBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `RxUV` is a symlink to the repository root, so the dependency has the
        // same identity ("rxuv") whatever the clone directory is called.
        .package(path: "RxUV"),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
    ],
    targets: [
        .target(name: "AllocationCounter"),
        .executableTarget(
            name: "RxCoreBenchmarks",
            dependencies: [
                "AllocationCounter",
                .product(name: "RxCore", package: "RxUV"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
