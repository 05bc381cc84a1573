import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP2
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
//   rxuv-http-client --port N [--count N] [--in-flight N] [--path PATH] [--http2]
//   rxuv-http-client --port N --download BYTES|--upload BYTES [--rate BYTES_A_SECOND]
//
// With --http2, HTTP/2 with prior knowledge (h2c): the requests in flight
// share one connection, each on its own stream.
// Prints "requests N bytes B" at the end; exits 1 on the first failure.
// With --download or --upload, one transfer of that many bytes instead
// (Transfer.swift, for Scripts/clientmemory.py), printing "moved B rss_before KIB rss_peak KIB" (its resident memory
// before the request and at its peak during it).

var port = 0
var count = 1000
var inFlight = 1
var path = "/plaintext"
var transfer: (Transfer.Direction, Int)?
var rate = 0
var versions: HTTPVersions = [.http1]
var arguments = CommandLine.arguments.dropFirst().makeIterator()
func number(_ name: String, _ range: ClosedRange<Int>, _ text: String?) -> Int {
    guard let value = text.flatMap(Int.init), range.contains(value) else {
        fputs("rxuv-http-client: \(name) needs a number from \(range.lowerBound) to \(range.upperBound)\n", stderr)
        exit(2)
    }
    return value
}
while let argument = arguments.next() {
    switch argument {
    case "--port": port = number("--port", 1...65_535, arguments.next())
    case "--count": count = number("--count", 1...100_000_000, arguments.next())
    case "--in-flight": inFlight = number("--in-flight", 1...10_000, arguments.next())
    case "--path": path = arguments.next() ?? "/"
    case "--download": transfer = (.download, number("--download", 0...(1 << 40), arguments.next()))
    case "--upload": transfer = (.upload, number("--upload", 0...(1 << 40), arguments.next()))
    case "--rate": rate = number("--rate", 0...(1 << 40), arguments.next())
    case "--http2": versions = [.http2]
    default:
        let usage = """
            usage: rxuv-http-client --port N [--count N] [--in-flight N] [--path PATH] [--http2]
                   rxuv-http-client --port N --download BYTES|--upload BYTES [--rate BYTES_A_SECOND]

            """
        fputs(usage, stderr)
        exit(2)
    }
}

let loop = try Loop()
if let (direction, length) = transfer {
    do {
        let job = Transfer(direction: direction, port: port, length: length, rate: rate)
        let outcome = try loop.run { try await job.run(on: loop) }
        print("moved \(outcome.moved) rss_before \(outcome.residentBefore) rss_peak \(outcome.residentPeak)")
        exit(outcome.moved == length ? 0 : 1)
    } catch {
        fputs("rxuv-http-client: \(error)\n", stderr)
        exit(1)
    }
}
let client = HTTPClient(loop: loop, configuration: HTTPClientConfiguration(maxConnectionsPerHost: inFlight, httpVersions: versions))
let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: path)

/// The requests still to start and the bytes read, on the loop's thread
/// (the main thread, which runs the loop): each of `inFlight` lanes starts
/// the next request when its last one's body has been read, so the driver
/// holds no queue of its own.
// @unchecked Sendable: every field is touched on the loop's thread only.
final class Lanes: @unchecked Sendable {
    let client: HTTPClient
    let request: HTTPRequest
    let count: Int
    let inFlight: Int
    var remaining: Int
    var running = 0
    var bytes = 0

    init(client: HTTPClient, request: HTTPRequest, count: Int, inFlight: Int) {
        self.client = client
        self.request = request
        self.count = count
        self.inFlight = inFlight
        self.remaining = count
    }

    func start() {
        for _ in 0..<min(inFlight, remaining) { next() }
    }

    func next() {
        guard remaining > 0 else {
            if running == 0 { finish() }
            return
        }
        remaining -= 1
        running += 1
        _ = client.rx.send(request).flatMap { response in response.body.collect(upTo: 1 << 24) }.subscribe(
            onSuccess: { body in
                self.bytes += body.count
                self.running -= 1
                self.next()
            },
            onFailure: { error in
                fputs("rxuv-http-client: \(error)\n", stderr)
                exit(1)
            })
    }

    func finish() {
        _ = client.shutdown().subscribe(onCompleted: { print("requests \(self.count) bytes \(self.bytes)") })
    }
}

let lanes = Lanes(client: client, request: request, count: count, inFlight: inFlight)
lanes.start()
loop.run()
