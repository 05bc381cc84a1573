// swift-tools-version:6.0
import PackageDescription

/// Debug builds count every live observable, sink, subject and disposable in
/// `Resources.total`; release builds compile the counter out.
let traceResources: [SwiftSetting] = [
    .define("TRACE_RESOURCES", .when(configuration: .debug)),
    .swiftLanguageMode(.v6),
]

/// The examples compile in the same language mode as the library.
let examples: [SwiftSetting] = [
    .swiftLanguageMode(.v6)
]

let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let coreMetrics = Target.Dependency.product(name: "CoreMetrics", package: "swift-metrics")

/// An example program in Examples/NAME (its README beside it), on the
/// public API, ExampleSupport, ArgumentParser and swift-log, plus `extra`.
func example(_ name: String, _ extra: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["ExampleSupport", "RxCore", "RxUV", argumentParser, logging] + extra,
        path: "Examples/\(name)",
        exclude: ["README.md"],
        swiftSettings: examples
    )
}

let package = Package(
    name: "RxUV",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RxCore", targets: ["RxCore"]),
        .library(name: "RxTest", targets: ["RxTest"]),
        .library(name: "RxBlocking", targets: ["RxBlocking"]),
        .library(name: "RxFoundation", targets: ["RxFoundation"]),
        .library(name: "RxUV", targets: ["RxUV"]),
        .library(name: "RxUVServiceLifecycle", targets: ["RxUVServiceLifecycle"]),
        .library(name: "RxUVTLS", targets: ["RxUVTLS"]),
        .library(name: "RxUVHTTP", targets: ["RxUVHTTP"]),
        .library(name: "RxUVHTTPClient", targets: ["RxUVHTTPClient"]),
        .library(name: "RxUVWebSocket", targets: ["RxUVWebSocket"]),
        .library(name: "RxUVHTTP2", targets: ["RxUVHTTP2"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // RxUV's diagnostics: the API package only (the user picks the backend).
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // A Server's metrics: the API package only (the user picks the backend).
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        // RxUVHTTP only: HTTPRequest, HTTPResponse and HTTPFields as its currency.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // Tracing (an API package): RxUVHTTP's server spans and RxUVHTTPClient's client spans.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // Examples only: /metrics in Prometheus's text format.
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // RxUVServiceLifecycle only: servers and loop groups as services.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Test-only: property-based fuzz of the core (Tests/RxCoreTests/Fuzz), on Swift Testing.
        .package(url: "https://github.com/x-sheep/swift-property-based.git", exact: "2.0.1"),
        // Docs only: `make docs` (DocC for the three libraries, Snippets/ included).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibUV",
            path: "Sources/CLibUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"]), .brew(["libuv"])]
        ),
        // The system's OpenSSL 3, for RxUVTLS only: a user who needs no TLS links no OpenSSL.
        .systemLibrary(
            name: "COpenSSL",
            path: "Sources/COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // The system's zlib, for RxUVHTTPClient (gzip and deflate response
        // bodies) and RxUVWebSocket (permessage-deflate) only.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .systemLibrary(
            name: "CNGHTTP2",
            path: "Sources/CNGHTTP2",
            pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"]), .brew(["libnghttp2"])]
        ),
        .target(name: "RxCore", swiftSettings: traceResources),
        .target(name: "RxTest", dependencies: ["RxCore"], swiftSettings: traceResources),
        .target(name: "RxBlocking", dependencies: ["RxCore"], swiftSettings: traceResources),
        // RxSwift's Foundation-typed API (Date, TimeInterval, Data decoders,
        // OperationQueueScheduler), so that RxCore stays Foundation-free (Documentation/Benchmarks/2026-11-24-third-performance-round.md).
        .target(name: "RxFoundation", dependencies: ["RxCore"], swiftSettings: traceResources),
        .target(
            name: "RxUV",
            dependencies: [
                "RxCore", "CLibUV",
                logging,
                coreMetrics,
            ],
            swiftSettings: traceResources
        ),
        // Server and LoopGroup as swift-service-lifecycle Services, in a product
        // of their own so that RxUV's dependency list stays short.
        .target(
            name: "RxUVServiceLifecycle",
            dependencies: [
                "RxCore", "RxUV",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                logging,
            ],
            swiftSettings: traceResources
        ),
        // TLS as a stream over any RxUV stream (OpenSSL with memory BIOs).
        .target(
            name: "RxUVTLS",
            dependencies: ["RxCore", "RxUV", "COpenSSL", logging],
            swiftSettings: traceResources
        ),
        // HTTP/1.1 on the framing layer, with swift-http-types' types.
        .target(
            name: "RxUVHTTP",
            dependencies: [
                "RxCore", "RxUV", .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: traceResources
        ),
        // The HTTP client: a target of its own, on RxUVHTTP's wire layer,
        // RxUVTLS and RxUVHTTP2's session (HTTP/2 through ALPN), so that a
        // server without TLS links no OpenSSL.
        .target(
            name: "RxUVHTTPClient",
            dependencies: [
                "RxCore", "RxUV", "RxUVHTTP", "RxUVHTTP2", "RxUVTLS", "CZlib", coreMetrics,
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: traceResources
        ),
        // WebSocket (RFC 6455): the framing layer (frames, masking, UTF-8,
        // messages), the handshake, the socket, the server's route on
        // RxUVHTTP's upgrade and the client on RxUVHTTPClient's.
        .target(
            name: "RxUVWebSocket",
            dependencies: [
                "RxCore", "RxUV", "RxUVHTTP", "RxUVHTTPClient", "CZlib", .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: traceResources
        ),
        // Test support (the role of SwiftNIO's NIOTestUtils), shared by the
        // suites: RxCore's leak-gated base and live-object count, with no
        // libuv, so that RxCoreTests needs none...
        .target(
            name: "RxUVHTTP2",
            dependencies: [
                "RxCore", "RxUV", "RxUVHTTP", "RxUVTLS", "CNGHTTP2", .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: traceResources
        ),
        .target(name: "RxCoreTestSupport", dependencies: ["RxCore"], swiftSettings: traceResources),
        // ...and the bridge's on top: its leak-gated base, captured reports,
        // temporary directories, child processes, and an in-memory
        // `ByteStream` pair (the role of NIO's EmbeddedChannel).
        .target(
            name: "RxUVTestSupport",
            dependencies: [
                "RxCoreTestSupport", "RxCore", "RxUV",
                logging,
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: traceResources
        ),
        .testTarget(
            name: "RxCoreTests",
            dependencies: ["RxCore", "RxCoreTestSupport", "RxTest", "RxFoundation", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: traceResources
        ),
        .testTarget(
            name: "RxBlockingTests",
            dependencies: ["RxBlocking", "RxCore", "RxCoreTestSupport", "RxTest"],
            swiftSettings: traceResources
        ),
        .testTarget(
            name: "RxUVTests",
            dependencies: [
                "RxUV", "RxCore", "RxCoreTestSupport", "RxUVTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
                logging,
                .product(name: "InMemoryLogging", package: "swift-log"),
                coreMetrics,
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: traceResources
        ),

        .testTarget(
            name: "RxUVServiceLifecycleTests",
            dependencies: [
                "RxUVServiceLifecycle", "RxUV", "RxCore", "RxUVTestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                logging,
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: traceResources
        ),

        .testTarget(
            name: "RxUVTLSTests",
            dependencies: [
                "RxUVTLS", "RxUVHTTP", "RxUV", "RxCore", "RxUVTestSupport",
                logging,
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: traceResources
        ),

        .testTarget(
            name: "RxUVHTTPTests",
            dependencies: [
                "RxUVHTTP", "RxUV", "RxCore", "RxUVTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                logging,
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            exclude: ["Parsing/h11-differential.py", "Parsing/h11-response-differential.py"],
            swiftSettings: traceResources
        ),
        .testTarget(
            name: "RxUVHTTPClientTests",
            dependencies: [
                "RxUVHTTPClient", "RxUVHTTP", "RxUVHTTP2", "RxUVTLS", "RxUV", "RxCore", "RxBlocking", "RxUVTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                coreMetrics,
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            exclude: ["Peers/h11-edge-server.py", "Peers/h2-edge-server.py"],
            swiftSettings: traceResources
        ),
        .testTarget(
            name: "RxUVHTTP2Tests",
            dependencies: [
                "RxUVHTTP2", "RxUVHTTP", "RxUVTLS", "RxUV", "RxCore", "RxUVTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            exclude: ["Peers/h2-peer.py"],
            swiftSettings: traceResources
        ),
        .testTarget(
            name: "RxUVWebSocketTests",
            dependencies: [
                "RxUVWebSocket", "RxUVTestSupport", "RxCore", "RxUV", "RxUVHTTP", "RxUVHTTPClient", "RxUVTLS",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["Differential/wsproto-differential.py"],
            swiftSettings: traceResources
        ),

        // Examples: command-line programs on the public API only (see Examples/README.md).
        .target(
            name: "ExampleSupport",
            dependencies: [
                "RxCore", "RxUV", "RxUVServiceLifecycle", "RxUVHTTP",
                argumentParser, logging, coreMetrics,
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Examples/ExampleSupport",
            swiftSettings: examples
        ),
        example("echo-server", ["RxUVServiceLifecycle", "RxUVTLS"]),
        example("tcp-probe", ["RxUVTLS"]),
        example("chat-daemon", ["RxUVServiceLifecycle"]),
        example("rxcat"),
        example("kv-server", ["RxUVServiceLifecycle", "RxUVTLS", coreMetrics]),
        example("rxsponge"),
        example("statsd-agg", ["RxUVServiceLifecycle", coreMetrics]),
        example("wait-for"),
        example("rx-watch"),
        example("http-server", ["RxUVServiceLifecycle", "RxUVHTTP", "RxUVHTTP2", "RxUVTLS", "RxUVHTTPClient", coreMetrics, .product(name: "HTTPTypes", package: "swift-http-types")]),
        example("fetch", ["RxUVHTTPClient", "RxUVHTTP", "RxUVHTTP2", "RxUVTLS", .product(name: "HTTPTypes", package: "swift-http-types")]),
        example("ws-chat", ["RxUVServiceLifecycle", "RxUVHTTP", "RxUVWebSocket", .product(name: "HTTPTypes", package: "swift-http-types")]),
    ]
)
