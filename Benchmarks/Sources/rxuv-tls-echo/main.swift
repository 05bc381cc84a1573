import RxCore
import RxUV
import RxUVTLS

#if canImport(Glibc)
// @preconcurrency: Glibc declares `stdout` and `stderr` as mutable globals.
@preconcurrency import Glibc
#endif

// rxuv-tls-echo: README.md's echo chain over TLS, as the TLS benchmarks run it.
//
//   rxuv-tls-echo --cert FILE --key FILE [--port N] [--tls12]
//
// One loop on this thread. Listens on 127.0.0.1 (port 0, the default, lets
// the system choose) with `loop.rx.listen(host:port:tls:)` and prints
// "port N" once listening; each connection's plaintext is written back as
// it arrives. `--tls12` caps the version at TLS 1.2.

var port = 0
var certificate: String?
var key: String?
var tls12 = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--port":
        guard let value = arguments.next().flatMap(Int.init), (0...65_535).contains(value) else {
            fputs("rxuv-tls-echo: --port needs a number from 0 to 65535\n", stderr)
            exit(2)
        }
        port = value
    case "--cert": certificate = arguments.next()
    case "--key": key = arguments.next()
    case "--tls12": tls12 = true
    default:
        fputs("usage: rxuv-tls-echo --cert FILE --key FILE [--port N] [--tls12]\n", stderr)
        exit(2)
    }
}
guard let certificate, let key else {
    fputs("usage: rxuv-tls-echo --cert FILE --key FILE [--port N] [--tls12]\n", stderr)
    exit(2)
}

// A thousand connections need more descriptors than some shells allow.
var files = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
    files.rlim_cur = files.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
}

var configuration = TLSConfiguration.server(identity: TLSIdentity(certificateChain: .file(certificate), privateKey: .file(key)))
if tls12 {
    configuration.maximumVersion = .tls12
}
let context = try TLSContext(configuration: configuration)
let loop = try Loop()
let server = loop.rx.listen(
    host: "127.0.0.1", port: port, tls: context,
    onListening: { address in
        print("port \(address.port)")
        fflush(stdout)
    }
)
.flatMap { stream in
    stream.rx.data
        .flatMap { stream.write($0) }
        .catch { _ in .empty() }
}
.subscribe(onError: { error in
    fputs("rxuv-tls-echo: \(error)\n", stderr)
    exit(1)
})
loop.run()
server.dispose()
