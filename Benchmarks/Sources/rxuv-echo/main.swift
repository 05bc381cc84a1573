import RxCore
import RxUV

#if canImport(Glibc)
// @preconcurrency: Glibc declares `stdout` and `stderr` as mutable globals.
@preconcurrency import Glibc
#endif

// rxuv-echo: the echo server of README.md, as the bridge benchmarks run it.
//
//   rxuv-echo [--port N] [--array | --group LOOPS]
//
// Listens on 127.0.0.1 (port 0, the default, lets the system choose) and
// prints "port N" once listening. `--array` converts each read to `[UInt8]`
// and back (`ByteBuffer(Array(bytes))`) before writing it: the cost of a
// byte type that cannot hand its memory to `uv_write` as it is. `--group`
// serves with a `Server` on a `LoopGroup` of LOOPS loops (round robin), the
// same echo as each connection's handler.

var port = 0
var throughArray = false
var groupLoops = 0
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--array":
        throughArray = true
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
        fputs("usage: rxuv-echo [--port N] [--array | --group LOOPS]\n", stderr)
        exit(2)
    }
}

// A thousand connections need more descriptors than some shells allow.
var files = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
    files.rlim_cur = files.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
}

if groupLoops > 0 {
    let group = try LoopGroup(threads: groupLoops)
    _ = group.rx.serve(host: "127.0.0.1", port: port) { served in
        served.connection.rx.data
            .flatMap { served.connection.write($0) }
            .catch { _ in .empty() }
            .asCompletable()
    }
    .subscribe(
        onSuccess: { server in
            print("port \(server.address.port)")
            fflush(stdout)
        },
        onFailure: { error in
            fputs("rxuv-echo: \(error)\n", stderr)
            exit(1)
        })
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
if throughArray {
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
