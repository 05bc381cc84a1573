import ArgumentParser
import ExampleSupport
import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVServiceLifecycle
import RxUVWebSocket
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `ws-chat`: a WebSocket chat on every core. Every line a browser (or any
/// WebSocket client) sends on `/chat` goes to every open socket through one
/// `PublishSubject`; `/echo` answers every message with itself; `/` is the
/// chat's page and `/selftest` a page that checks the server from a
/// browser.
@main
struct WSChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ws-chat",
        abstract: "A WebSocket chat: every message on /chat goes to every open socket.",
        discussion: """
            Routes: GET / (the chat's page), WebSocket /chat?name=NAME (each text \
            message is sent to every open /chat socket as "NAME: text"; a socket \
            that cannot keep up is closed with 1008), WebSocket /echo (every message \
            back as it came, up to 1 MiB), GET /selftest (a page whose script sends \
            text and binary messages of 0 B to 1 MiB through /echo and writes its \
            verdict into the page). Both WebSocket routes accept permessage-deflate \
            (RFC 7692, which browsers offer) unless --no-compression. SIGINT or SIGTERM closes every socket with 1001 \
            (going away), waits up to 2 seconds for their Close, prints a summary \
            and exits 0.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 lets the system choose.")
    var port = 8080

    @Option(help: "Loops (threads) to spread connections over; default: one per core.")
    var threads = LoopGroup.coreCount

    @Option(help: "The most messages a slow socket may have waiting before it is closed.")
    var backlog = 256

    @Flag(help: "Decline permessage-deflate: every message goes uncompressed.")
    var noCompression = false

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1.") }
        guard backlog >= 1 else { throw ValidationError("--backlog must be at least 1.") }
    }

    func run() async throws {
        Console.lineBuffered()
        let logger = logging.bootstrap("ws-chat")
        let group = try LoopGroup(threads: threads, logger: logger)
        let daemon = LoopGroupService(group, deadline: .seconds(2), signals: [SIGINT, SIGTERM])
        let started = Mutex<Server?>(nil)
        let room = ChatRoom(backlog: backlog)

        var router = HTTPRouter()
        router.get("/") { _ in .just(ChatPages.chat) }
        router.get("/selftest") { _ in .just(ChatPages.selfTest) }
        let compression = noCompression ? nil : WebSocketCompression()
        router.webSocket("/chat", options: WebSocketOptions(compression: compression)) { socket, request in
            room.join(socket, name: ChatRoom.name(in: request))
        }
        let echoOptions = WebSocketOptions(maxFrameLength: 1 << 20, maxMessageLength: 1 << 20, unreadLimit: 2 << 20, compression: compression)
        router.webSocket("/echo", options: echoOptions) { socket, _ in
            socket.messages.concatMap { socket.send($0).asObservable() }.asCompletable()
        }

        let server = ServerService(
            group.rx.serveHTTP(host: host, port: port, handler: router.handler),
            drainedBy: daemon, name: Endpoint.format(host: host, port: port)
        ) { server in
            started.withLock { $0 = server }
            print("ws-chat: listening on \(server.address)")
            _ = daemon.shutdown.requested.subscribe(onNext: { signum in
                print("ws-chat: \(signum == SIGINT ? "SIGINT" : "SIGTERM"): closing \(server.connectionCount) open")
            })
        }
        try await daemon.runDaemon(with: [server], logger: logger)
        print("ws-chat: stopped; \(Console.count(room.messageCount, "message")) sent to the room")
    }
}
