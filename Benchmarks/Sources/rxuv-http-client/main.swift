import HTTPTypes
import RxCore
import RxUV
import RxUVHTTPClient

#if canImport(Glibc)
// @preconcurrency: Glibc declares `stdout` and `stderr` as mutable globals.
@preconcurrency import Glibc
#endif

// rxuv-http-client: RxUVHTTPClient's client on one loop on the main thread,
// making COUNT GET requests to 127.0.0.1:PORT (at most IN_FLIGHT at once,
// each body read whole), then shutting down; nothing else, so that it runs
// under valgrind and a request's instructions can be counted
// (Benchmarks/Scripts/thresholds.py's client cases, against nginx).
//
//   rxuv-http-client --port N [--count N] [--in-flight N] [--path PATH]
//
// Prints "requests N bytes B" at the end; exits 1 on the first failure.

var port = 0
var count = 1000
var inFlight = 1
var path = "/plaintext"
var arguments = CommandLine.arguments.dropFirst().makeIterator()
@MainActor func number(_ name: String, _ range: ClosedRange<Int>) -> Int {
    guard let value = arguments.next().flatMap(Int.init), range.contains(value) else {
        fputs("rxuv-http-client: \(name) needs a number from \(range.lowerBound) to \(range.upperBound)\n", stderr)
        exit(2)
    }
    return value
}
while let argument = arguments.next() {
    switch argument {
    case "--port": port = number("--port", 1...65_535)
    case "--count": count = number("--count", 1...100_000_000)
    case "--in-flight": inFlight = number("--in-flight", 1...10_000)
    case "--path": path = arguments.next() ?? "/"
    default:
        fputs("usage: rxuv-http-client --port N [--count N] [--in-flight N] [--path PATH]\n", stderr)
        exit(2)
    }
}

let loop = try Loop()
let client = HTTPClient(loop: loop, configuration: HTTPClientConfiguration(maxConnectionsPerHost: inFlight))
let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: path)
let run = Observable<Int>.range(start: 0, count: count)
    .map { _ in client.rx.send(request).flatMap { response in response.body.collect(upTo: 1 << 24) }.asObservable() }
    .merge(maxConcurrent: inFlight)
    .reduce(0) { $0 + $1.count }
    .asObservable()
    .concatMap { bytes in client.shutdown().andThen(Observable.just(bytes)) }
    .subscribe(
        onNext: { bytes in print("requests \(count) bytes \(bytes)") },
        onError: { error in
            fputs("rxuv-http-client: \(error)\n", stderr)
            exit(1)
        })
loop.run()
run.dispose()
