import Hummingbird
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// Writes `text` to a file descriptor at once, unbuffered (`stdout` and
/// `stderr` are mutable C globals that Swift 6 does not let us touch here).
func writeOut(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
}

// hb-http: Hummingbird 2's HTTP/1.1 server on one event-loop thread, the
// Swift reference of the HTTP benchmarks (Scripts/httpbench.py).
//
//   hb-http [--port N] [--root DIR]
//
// Listens on 127.0.0.1 (port 0, the default, lets the system choose) and
// prints "listening on 127.0.0.1:N" once listening. Routes, the same bytes
// as nginx and RxUV's http-server in the script:
//
//   GET /plaintext      5 bytes, "hello", text/plain
//   GET /json           1024 bytes, {"message":"xxx…"} (1010 × "x"), application/json
//   GET /static/{file}  the file under --root, through Hummingbird's FileMiddleware
//                       (read from disk for each request, on NIO's thread pool)

var port = 0
var root = "."
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch (argument, arguments.next()) {
    case ("--port", let value?) where UInt16(value) != nil:
        port = Int(value)!
    case ("--root", let value?):
        root = value
    default:
        writeOut("usage: hb-http [--port N] [--root DIR]\n", to: STDERR_FILENO)
        exit(2)
    }
}

var files = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
    files.rlim_cur = files.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
}

// The fixed bodies, built once; each response shares the buffer's storage.
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
// Anything the routes do not match (a 404) is looked up under --root, with
// the "/static" prefix taken off the path. Added after the routes, so that it
// wraps only the not-found responder (a router's middleware applies to the
// routes added after it), not /plaintext and /json.
router.add(middleware: FileMiddleware(root, urlBasePath: "/static"))

let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        writeOut("listening on 127.0.0.1:\(channel.localAddress?.port ?? 0)\n", to: STDOUT_FILENO)
    },
    eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup(numberOfThreads: 1))
)
try await app.runService()
