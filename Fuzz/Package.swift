// swift-tools-version:6.0
import PackageDescription

// Coverage-guided fuzzing of every decoder that reads bytes from strangers,
// with the toolchain's libFuzzer and AddressSanitizer, in its own package so
// that the fuzzing flags never reach the library's own builds. Run from the
// repository root with `make fuzz` (a minute per target) or
// `make fuzz-quick` (CI); see RELIABILITY.md.
//
// Each target is one `LLVMFuzzerTestOneInput` (libFuzzer brings `main`):
// the decoder must not crash, must keep its limits, and must cut the same
// frames (or fail the same way) however the input is split into reads.

/// libFuzzer provides `main`: the targets are libraries of one entry point.
let fuzzTarget: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .unsafeFlags(["-parse-as-library"]),
]

func fuzzer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies, swiftSettings: fuzzTarget)
}

let package = Package(
    name: "RxUVFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `RxUV` is a symlink to the repository root (the same identity,
        // "rxuv", whatever the clone directory is called).
        .package(path: "RxUV")
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "RxCore", package: "RxUV"), .product(name: "RxUV", package: "RxUV"),
                .product(name: "RxUVHTTP", package: "RxUV"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        fuzzer("fuzz-lines", [.product(name: "RxUV", package: "RxUV")]),
        fuzzer("fuzz-length-prefixed", [.product(name: "RxUV", package: "RxUV")]),
        // kv-server's and statsd-agg's parsers, compiled in from Examples/
        // through symlinks.
        fuzzer("fuzz-resp", [.product(name: "RxUV", package: "RxUV")]),
        fuzzer("fuzz-statsd", [.product(name: "RxUV", package: "RxUV")]),
        fuzzer(
            "fuzz-http",
            [.product(name: "RxUV", package: "RxUV"), .product(name: "RxUVHTTP", package: "RxUV")]
        ),
        // The HTTP/1.1 response decoder (the client's): the same parts
        // and failure however the stream is cut, the parts in their
        // grammar, every refusal a 502.
        fuzzer(
            "fuzz-http-response",
            [.product(name: "RxUV", package: "RxUV"), .product(name: "RxUVHTTP", package: "RxUV")]
        ),
        // The WebSocket frame decoder and message decoder (RFC 6455): the
        // same frames, events and failure however the stream is cut, every
        // limit kept, every failure a close code to send (or 1006).
        fuzzer(
            "fuzz-websocket",
            [.product(name: "RxUV", package: "RxUV"), .product(name: "RxUVWebSocket", package: "RxUV")]
        ),
        // The HTTP decoder's recent head: one decoder against a new
        // decoder for each request, on requests sent again and again.
        fuzzer(
            "fuzz-http-repeats",
            [.product(name: "RxUV", package: "RxUV"), .product(name: "RxUVHTTP", package: "RxUV")]
        ),
        // The response decoder's recent lines: one decoder against a new
        // decoder for each response, on responses sent again and again.
        fuzzer(
            "fuzz-http-response-repeats",
            [.product(name: "RxUV", package: "RxUV"), .product(name: "RxUVHTTP", package: "RxUV")]
        ),
    ]
)
