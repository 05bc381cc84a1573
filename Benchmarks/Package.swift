// swift-tools-version:6.0
import PackageDescription

// Benchmarks for RxUV, in their own package so that comparison dependencies
// (OpenCombine, SwiftNIO) never reach the library targets. Run from the
// repository root with `make benchmarks` (the core) and `make benchmarks-net`
// (the bridge against C on libuv and SwiftNIO), both release builds.
let package = Package(
    name: "RxUVBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `RxUV` is a symlink to the repository root, so the dependency has the
        // same identity ("rxuv") whatever the clone directory is called.
        .package(path: "RxUV"),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        // The TLS benchmarks' Swift reference: SwiftNIO over NIOSSL.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", exact: "2.37.6"),
        // The metrics backends a Server's echo is measured with.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        // rxuv-http-client's requests.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // The in-memory tracer: rxuv-http --traced (the thresholds file's http.plaintext.traced).
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        // The HTTP benchmarks' Swift reference: Hummingbird 2 on SwiftNIO.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // The HTTP client benchmark's Swift reference (Scripts/clientbench.py).
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        // The WebSocket echo's Swift reference beside NIOWebSocket (Scripts/wsbench.py).
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
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
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // The bridge benchmarks (Scripts/netbench.py runs them; see BENCHMARKS.md).
        // libuv for the C programs, found through pkg-config as the library does.
        .systemLibrary(
            name: "CLibUVBench",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"]), .brew(["libuv"])]
        ),
        // What the load generators measure with (clock, CPU and memory from
        // /proc, checked messages, a latency histogram).
        .target(name: "LoadMeasure"),
        // The load generator: C on epoll, no libuv, one thread.
        .executableTarget(name: "netload", dependencies: ["LoadMeasure"]),
        // The WebSocket load generator: the same, speaking RFC 6455 as a client.
        .executableTarget(name: "wsload", dependencies: ["LoadMeasure"]),
        // What the C echo floors share: listening, the port printed, a run
        // that SIGTERM or SIGINT ends.
        .target(name: "EchoFloor", dependencies: ["CLibUVBench"]),
        // The floor: echo servers in plain C on libuv (reused buffer, or malloc per read).
        .executableTarget(name: "uv-echo", dependencies: ["CLibUVBench", "EchoFloor"]),
        // The floor for timers: 1,000,000 uv_timer_t in plain C.
        .executableTarget(name: "uv-timers", dependencies: ["CLibUVBench"]),
        // The README echo chain on RxUV; the same as `for try await` on the
        // loop's executor; and as a Server's handler with its metrics off, on
        // swift-metrics' no-op backend, or on swift-prometheus's.
        .executableTarget(
            name: "rxuv-echo",
            dependencies: [
                .product(name: "RxCore", package: "RxUV"),
                .product(name: "RxUV", package: "RxUV"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // RxUVHTTP's server on one loop on the main thread, for counting a
        // request's instructions under valgrind.
        .executableTarget(
            name: "rxuv-http",
            dependencies: [
                .product(name: "RxCore", package: "RxUV"),
                .product(name: "RxUV", package: "RxUV"),
                .product(name: "RxUVHTTP", package: "RxUV"),
                .product(name: "RxUVHTTP2", package: "RxUV"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // RxUVWebSocket's echo route, for the thresholds' ws case.
        .executableTarget(
            name: "rxuv-ws-echo",
            dependencies: [
                .product(name: "RxCore", package: "RxUV"),
                .product(name: "RxUV", package: "RxUV"),
                .product(name: "RxUVHTTP", package: "RxUV"),
                .product(name: "RxUVWebSocket", package: "RxUV"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "rxuv-http-client",
            dependencies: [
                .product(name: "RxCore", package: "RxUV"),
                .product(name: "RxUV", package: "RxUV"),
                .product(name: "RxUVHTTPClient", package: "RxUV"),
                .product(name: "RxUVHTTP2", package: "RxUV"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // AsyncHTTPClient on one event loop, rxuv-http-client's reference
        // (Scripts/clientbench.py, against nginx and wrk).
        .executableTarget(
            name: "ahc-client",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A loop's turn with nothing to do, watched or not: the thresholds file's loop.turn cases.
        .executableTarget(
            name: "rxuv-turns",
            dependencies: [.product(name: "RxCore", package: "RxUV"), .product(name: "RxUV", package: "RxUV")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // 1,000,000 timers through loop.rx.timer or Observable.timer on the Loop.
        .executableTarget(
            name: "rxuv-timers",
            dependencies: [
                .product(name: "RxCore", package: "RxUV"),
                .product(name: "RxUV", package: "RxUV"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Calls hopping onto a loop from other threads: an actor on the loop's
        // executor against loop.execute with a continuation.
        .executableTarget(
            name: "rxuv-actor",
            dependencies: [
                .product(name: "RxUV", package: "RxUV")
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // SwiftNIO's echo on one event-loop thread, as a channel handler or
        // as NIOAsyncChannel's `for try await`.
        .executableTarget(
            name: "nio-echo",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // TLS (BENCHMARKS.md, Scripts/tlsbench.py): the floor, a TLS echo in
        // plain C on libuv and OpenSSL 3 with memory BIOs; the load generator,
        // C on epoll with OpenSSL; RxUVTLS's echo; SwiftNIO's over NIOSSL.
        .executableTarget(
            name: "uv-tls-echo",
            dependencies: ["CLibUVBench", "EchoFloor"],
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
        ),
        .executableTarget(
            name: "tlsload",
            dependencies: ["LoadMeasure"],
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
        ),
        .executableTarget(
            name: "rxuv-tls-echo",
            dependencies: [
                .product(name: "RxCore", package: "RxUV"),
                .product(name: "RxUV", package: "RxUV"),
                .product(name: "RxUVTLS", package: "RxUV"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "nio-tls-echo",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // HTTP (BENCHMARKS.md, Scripts/httpbench.py): Hummingbird 2 on one
        // event-loop thread, against nginx and RxUV's http-server example.
        .executableTarget(
            name: "hb-http",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // HTTP/2 (BENCHMARKS.md, Scripts/h2bench.py): Hummingbird 2's HTTP/2
        // on one event-loop thread, against nginx and http-server --http2.
        .executableTarget(
            name: "hb-http2",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // WebSocket echo (BENCHMARKS.md, Scripts/wsbench.py): SwiftNIO's
        // NIOWebSocket and hummingbird-websocket on one event-loop thread,
        // against rxuv-ws-echo, driven by wsload.
        .executableTarget(
            name: "nio-ws-echo",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "hb-ws-echo",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
