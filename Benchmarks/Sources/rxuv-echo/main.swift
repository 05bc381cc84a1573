import CoreMetrics
import Prometheus
import RxCore
import RxUV

#if canImport(Glibc)
// @preconcurrency: Glibc declares `stdout` and `stderr` as mutable globals.
@preconcurrency import Glibc
#endif

// rxuv-echo: the echo server of README.md, as the bridge benchmarks run it.
//
//   rxuv-echo [--port N] [--array | --async | --actor | --group LOOPS | --server off|noop|prometheus]
//
// Listens on 127.0.0.1 (port 0, the default, lets the system choose) and
// prints "port N" once listening. `--array` converts each read to `[UInt8]`
// and back (`ByteBuffer(Array(bytes))`) before writing it: the cost of a
// byte type that cannot hand its memory to `uv_write` as it is. `--group`
// serves with a `Server` on a `LoopGroup` of LOOPS loops (round robin), the
// same echo as each connection's handler. `--async` echoes with
// `for try await chunk in connection.inbound { try await outbound.write(chunk) }`
// in a task on the loop's executor, one per connection. `--server` serves
// with a `Server` on the one loop of this thread, its metrics off
// (`recordsMetrics = false`), on swift-metrics' default no-op backend, or on
// swift-prometheus's (`PrometheusMetricsFactory`).

var port = 0
var throughArray = false
var async = false
var onActor = false
var serverMetrics: String?
var groupLoops = 0
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--array":
        throughArray = true
    case "--async":
        async = true
    case "--actor":
        onActor = true
    case "--server":
        guard let value = arguments.next(), ["off", "noop", "prometheus"].contains(value) else {
            fputs("rxuv-echo: --server needs off, noop or prometheus\n", stderr)
            exit(2)
        }
        serverMetrics = value
    case "--group":
        guard let value = arguments.next().flatMap(Int.init), value >= 1 else {
            fputs("rxuv-echo: --group needs a number of loops\n", stderr)
            exit(2)
        }
        groupLoops = value
    case "--port":
        guard let value = arguments.next().flatMap(Int.init), (0...65_535).contains(value) else {
            fputs("rxuv-echo: --port needs a number from 0 to 65535\n", stderr)
            exit(2)
        }
        port = value
    default:
        fputs("usage: rxuv-echo [--port N] [--array | --async | --actor | --group LOOPS | --server off|noop|prometheus]\n", stderr)
        exit(2)
    }
}

// A thousand connections need more descriptors than some shells allow.
var files = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
    files.rlim_cur = files.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
}

/// One connection's echo on an actor whose executor is a loop.
actor EchoSession {
    nonisolated let unownedExecutor: UnownedSerialExecutor
    let connection: TCPConnection

    init(_ connection: TCPConnection, on loop: Loop) {
        self.connection = connection
        unownedExecutor = loop.asUnownedSerialExecutor()
    }

    func run() async throws {
        let outbound = connection.outbound
        for try await chunk in connection.inbound {
            try await outbound.write(chunk)
        }
    }
}

/// A `Server`'s handler: the README chain on one served connection.
@Sendable func echo(_ served: ServedConnection<TCPConnection>) -> Completable {
    served.connection.rx.data
        .flatMap { served.connection.write($0) }
        .catch { _ in .empty() }
        .asCompletable()
}

/// Says the port a `Server` listens on, or why it cannot.
func announce(_ serving: Single<Server>) -> Disposable {
    serving.subscribe(
        onSuccess: { server in
            print("port \(server.address.port)")
            fflush(stdout)
        },
        onFailure: { error in
            fputs("rxuv-echo: \(error)\n", stderr)
            exit(1)
        })
}

if groupLoops > 0 {
    let group = try LoopGroup(threads: groupLoops)
    _ = announce(group.rx.serve(host: "127.0.0.1", port: port, handler: echo))
    // The group's threads serve until SIGTERM ends the process.
    while true { pause() }
}

let loop = try Loop()
let listening: @Sendable (SocketAddress) -> Void = { address in
    print("port \(address.port)")
    fflush(stdout)
}
let failed: (Error) -> Void = { error in
    fputs("rxuv-echo: \(error)\n", stderr)
    exit(1)
}

let server: Disposable
if let serverMetrics {
    var options = ServerOptions()
    switch serverMetrics {
    case "off": options.recordsMetrics = false
    case "prometheus": MetricsSystem.bootstrap(PrometheusMetricsFactory())
    default: break
    }
    server = announce(loop.rx.serve(host: "127.0.0.1", port: port, options: options, handler: echo))
} else if async {
    // Each connection in a task on this loop (its task executor): the
    // iteration and the writes run on the loop thread, with no hop.
    server = loop.rx.listen(host: "127.0.0.1", port: port, onListening: listening)
        .flatMap { connection in
            Completable.create(executorPreference: loop) {
                let outbound = connection.outbound
                for try await chunk in connection.inbound {
                    try await outbound.write(chunk)
                }
            }
            .asObservable()
            .catch { _ in .empty() }
        }
        .subscribe(onError: failed)
} else if onActor {
    // Each connection on an actor whose executor is this loop: the
    // iteration and the writes run on the loop thread, with no hop.
    server = loop.rx.listen(host: "127.0.0.1", port: port, onListening: listening)
        .flatMap { connection in
            let session = EchoSession(connection, on: loop)
            return Completable.create { try await session.run() }
                .asObservable()
                .catch { _ in .empty() }
        }
        .subscribe(onError: failed)
} else if throughArray {
    server = loop.rx.listen(host: "127.0.0.1", port: port, onListening: listening)
        .flatMap { connection in
            connection.rx.data
                .flatMap { connection.write(ByteBuffer(Array($0))) }
                .catch { _ in .empty() }
        }
        .subscribe(onError: failed)
} else {
    // The README chain, unchanged.
    server = loop.rx.listen(host: "127.0.0.1", port: port, onListening: listening)
        .flatMap { connection in
            connection.rx.data
                .flatMap { connection.write($0) }
                .catch { _ in .empty() }
        }
        .subscribe(onError: failed)
}
loop.run()
server.dispose()
