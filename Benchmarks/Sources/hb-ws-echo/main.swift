import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

// hb-ws-echo: hummingbird-websocket 2.8's echo on one event-loop thread,
// beside nio-ws-echo the Swift reference of the WebSocket echo benchmark
// (Scripts/wsbench.py, driven by wsload).
//
//   hb-ws-echo [--port N]
//
// Listens on 127.0.0.1 (port 0, the default, lets the system choose) and
// prints "port N" once listening. `.http1WebSocketUpgrade` upgrades GET
// /echo (frames and messages up to 1 MiB, as RxUVWebSocket's default); any
// other request goes to an empty router (404). On the socket the handler
// reads `inbound.messages(maxSize:)` (fragments gathered) and writes every
// text or binary message back, one at a time, as the package's README does;
// pings, pongs and the Close answer are the package's own. Its handlers run
// as Swift tasks, on the concurrency runtime's threads, as Hummingbird's
// always do; the event loop is one thread. Logging is at "warning" unless
// LOG_LEVEL says otherwise, so that nothing is printed per connection.

/// Writes `text` to a file descriptor at once, unbuffered (`stdout` and
/// `stderr` are mutable C globals that Swift 6 does not let us touch here).
func writeOut(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
}

/// The largest frame, and the largest message, the echo takes.
let maxSize = 1 << 20

var port = 0
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch (argument, arguments.next().flatMap(Int.init)) {
    case ("--port", let value?) where (0...65_535).contains(value):
        port = value
    default:
        writeOut("usage: hb-ws-echo [--port N]\n", to: STDERR_FILENO)
        exit(2)
    }
}

var files = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
    files.rlim_cur = files.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
}
// Hummingbird's logger reads its level from LOG_LEVEL.
setenv("LOG_LEVEL", "warning", 0)

let router = Router()
let app = Application(
    router: router,
    server: .http1WebSocketUpgrade(configuration: .init(ws: .init(maxFrameSize: maxSize))) { request, _, _ in
        guard request.path == "/echo" else { return .dontUpgrade }
        return .upgrade([:]) { inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: maxSize) {
                switch message {
                case .text(let text):
                    try await outbound.write(.text(text))
                case .binary(let buffer):
                    try await outbound.write(.binary(buffer))
                }
            }
        }
    },
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        writeOut("port \(channel.localAddress?.port ?? 0)\n", to: STDOUT_FILENO)
    },
    eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup(numberOfThreads: 1))
)
try await app.runService()
