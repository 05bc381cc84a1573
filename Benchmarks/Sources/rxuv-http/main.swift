import CoreMetrics
import InMemoryTracing
import Prometheus
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2

#if canImport(Glibc)
// @preconcurrency: Glibc declares `stdout` and `stderr` as mutable globals.
@preconcurrency import Glibc
#endif

// rxuv-http: RxUVHTTP's server on one loop on the main thread, with the
// routes the HTTP benchmark asks http-server for (GET /plaintext: "hello";
// GET /json: 1 KiB of JSON), and nothing else: no threads, no service
// group, so that it runs under valgrind (the http-server example's
// threads do not), and a request's instructions can be counted
// (`Benchmarks/Scripts/httpcallgrind.sh`).
//
//   rxuv-http [--port N] [--metered] [--traced] [--keepalive-requests N] [--http2]
//
// Listens on 127.0.0.1 (port 0, the default, lets the system choose) and
// prints "port N" once listening. `--metered` counts and times every
// response through swift-metrics into swift-prometheus's registry from
// `HTTPServerOptions.onResponse`, as the example's `RequestMetrics` does.
// `--traced` gives every request a server span from swift-distributed-
// tracing's in-memory tracer (`HTTPServerOptions.tracer`), whose finished
// spans are dropped at each response.
// `--keepalive-requests N` closes a keep-alive connection after N requests
// (1000, nginx's default, unless set). `--http2` serves the same routes
// over cleartext HTTP/2 (prior knowledge) instead of HTTP/1.1.

var port = 0
var metered = false
var traced = false
var keepaliveRequests = 1000
var http2 = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--metered":
        metered = true
    case "--traced":
        traced = true
    case "--http2":
        http2 = true
    case "--keepalive-requests":
        guard let value = arguments.next().flatMap(Int.init), value > 0 else {
            fputs("rxuv-http: --keepalive-requests needs a positive number\n", stderr)
            exit(2)
        }
        keepaliveRequests = value
    case "--port":
        guard let value = arguments.next().flatMap(Int.init), (0...65_535).contains(value) else {
            fputs("rxuv-http: --port needs a number from 0 to 65535\n", stderr)
            exit(2)
        }
        port = value
    default:
        fputs("usage: rxuv-http [--port N] [--metered] [--traced] [--keepalive-requests N] [--http2]\n", stderr)
        exit(2)
    }
}

let plaintext = HTTPServerResponse.text("hello")
let json = HTTPServerResponse.text("{\"message\":\"" + String(repeating: "x", count: 1010) + "\"}")

var router = HTTPRouter()
router.get("/plaintext") { _ in .just(plaintext) }
router.get("/json") { _ in .just(json) }
var http = HTTPServerOptions(maxRequestsPerConnection: keepaliveRequests)
if metered {
    MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: PrometheusCollectorRegistry()))
    let answered = Counter(label: "http_requests_total", dimensions: [("method", "GET"), ("status", "200")])
    let duration = Timer(label: "http_request_duration_seconds")
    http.onResponse = { response in
        answered.increment()
        duration.recordNanoseconds(response.nanoseconds)
    }
}

if traced {
    let tracer = InMemoryTracer()
    http.tracer = tracer
    let metering = http.onResponse
    http.onResponse = { response in
        metering?(response)
        tracer.clearFinishedSpans()
    }
}

let loop = try Loop()
let serve =
    http2
    ? loop.rx.serveHTTP2(host: "127.0.0.1", port: port, http: http, handler: router.handler)
    : loop.rx.serveHTTP(host: "127.0.0.1", port: port, http: http, handler: router.handler)
let serving = serve.subscribe(
    onSuccess: { server in
        print("port \(server.address.port)")
        fflush(stdout)
    },
    onFailure: { error in
        fputs("rxuv-http: \(error)\n", stderr)
        exit(1)
    })
loop.run()
serving.dispose()
