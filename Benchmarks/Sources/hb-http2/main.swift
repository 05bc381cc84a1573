import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#endif

/// Writes `text` to a file descriptor at once, unbuffered (`stdout` and
/// `stderr` are mutable C globals that Swift 6 does not let us touch here).
func writeOut(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
}

// hb-http2: Hummingbird 2's HTTP/2 server (HummingbirdHTTP2, on
// swift-nio-http2) on one event-loop thread, the Swift reference of the
// HTTP/2 benchmark (Scripts/h2bench.py).
//
//   hb-http2 [--port N] [--root DIR] [--tls CERT KEY]
//
// Listens on 127.0.0.1 (port 0, the default, lets the system choose) and
// prints "listening on 127.0.0.1:N" once listening. Cleartext HTTP/2 with
// prior knowledge (`plaintextHTTP2`), or, with --tls, TLS whose ALPN
// offers h2 and http/1.1 (`http2Upgrade`). Routes, the same bytes as
// hb-http, nginx and RxUV's http-server:
//
//   GET /plaintext      5 bytes, "hello", text/plain
//   GET /json           1024 bytes, {"message":"xxx…"} (1010 × "x"), application/json
//   GET /static/{file}  the file under --root, through Hummingbird's FileMiddleware

var port = 0
var root = "."
var tls: (certificate: String, key: String)?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--port":
        guard let value = arguments.next().flatMap(UInt16.init) else { fallthrough }
        port = Int(value)
    case "--root":
        guard let value = arguments.next() else { fallthrough }
        root = value
    case "--tls":
        guard let certificate = arguments.next(), let key = arguments.next() else { fallthrough }
        tls = (certificate, key)
    default:
        writeOut("usage: hb-http2 [--port N] [--root DIR] [--tls CERT KEY]\n", to: STDERR_FILENO)
        exit(2)
    }
}

var files = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
    files.rlim_cur = files.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
}

let hello = ByteBuffer(string: "hello")
let json = ByteBuffer(string: #"{"message":""# + String(repeating: "x", count: 1010) + #""}"#)
precondition(json.readableBytes == 1024)

let router = Router()
router.get("plaintext") { [hello] _, _ in
    Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: hello))
}
router.get("json") { [json] _, _ in
    Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: json))
}
router.add(middleware: FileMiddleware(root, urlBasePath: "/static"))

let server: HTTPServerBuilder
if let tls {
    let chain = try NIOSSLCertificate.fromPEMFile(tls.certificate).map { NIOSSLCertificateSource.certificate($0) }
    let configuration = TLSConfiguration.makeServerConfiguration(
        certificateChain: chain, privateKey: .privateKey(try NIOSSLPrivateKey(file: tls.key, format: .pem)))
    server = try .http2Upgrade(tlsConfiguration: configuration)
} else {
    server = .plaintextHTTP2()
}

let app = Application(
    router: router,
    server: server,
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        writeOut("listening on 127.0.0.1:\(channel.localAddress?.port ?? 0)\n", to: STDOUT_FILENO)
    },
    eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup(numberOfThreads: 1))
)
try await app.runService()
