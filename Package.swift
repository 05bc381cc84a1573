// swift-tools-version:6.0
import PackageDescription

/// Debug builds count every live observable, sink, subject and disposable in
/// `Resources.total`; release builds compile the counter out.
let traceResources: [SwiftSetting] = [
    .define("TRACE_RESOURCES", .when(configuration: .debug)),
    .swiftLanguageMode(.v5),
]

let package = Package(
    name: "RxUV",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RxCore", targets: ["RxCore"]),
        .library(name: "RxTest", targets: ["RxTest"]),
        .library(name: "RxUV", targets: ["RxUV"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibUV",
            path: "Sources/CLibUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"]), .brew(["libuv"])]
        ),
        .target(name: "RxCore", swiftSettings: traceResources),
        .target(name: "RxTest", dependencies: ["RxCore"], swiftSettings: traceResources),
        .target(name: "RxUV", dependencies: ["RxCore", "CLibUV"], swiftSettings: traceResources),
        .testTarget(name: "RxCoreTests", dependencies: ["RxCore", "RxTest"], swiftSettings: traceResources),
        .testTarget(name: "RxUVTests", dependencies: ["RxUV", "RxCore"], swiftSettings: traceResources),
    ]
)
