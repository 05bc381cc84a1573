import ArgumentParser
import ExampleSupport
import RxCore
import RxUV
import RxUVServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `chat-daemon`: a line-based chat over TCP, built as a one-way data flow
/// around a `Room` (see Room.swift).
@main
struct ChatDaemon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat-daemon",
        abstract: "A line-based chat over TCP: the first line is your nick, then every line goes to the others.",
        discussion: """
            Commands: /who lists the nicks, /quit leaves. Lines longer than \
            \(Room.maxLineLength) bytes are refused. Connections are spread over \
            --threads loops; the room lives on the first. SIGHUP logs the counters; \
            SIGINT or SIGTERM tells every client "* server shutting down", closes them \
            (resetting, after 2 seconds, those that do not read) and exits 0. Exits 1 \
            when it cannot listen.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 lets the system choose.")
    var port = 6667

    @Option(help: "Loops (threads) to spread connections over; default: one per core. The room lives on the first.")
    var threads = LoopGroup.coreCount

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
        guard threads >= 1 else {
            throw ValidationError("--threads must be at least 1.")
        }
    }

    func run() async throws {
        Console.lineBuffered()
        let logger = logging.bootstrap("chat-daemon")
        let group = try LoopGroup(threads: threads, logger: logger)
        // The room is one loop's: every command reaches it on that thread,
        // and its deliveries go back to each session's loop.
        let roomLoop = group.loops[0]
        let room = Room()
        let daemon = LoopGroupService(group, deadline: .seconds(2), signals: [SIGINT, SIGTERM])
        let shutdown = daemon.shutdown
        let nextID = Atomic<Int>(0)
        let started = Mutex<Server?>(nil)

        _ = shutdown.requested.subscribe(onNext: { _ in
            print("chat-daemon: shutting down, \(Console.count(room.state.value.connected, "client")) connected")
            room.input.onNext(.shutdown)
        })
        shutdown.add(
            roomLoop.rx.signal(SIGHUP).subscribe(onNext: { _ in
                let state = room.state.value
                print("chat-daemon: \(state.connected) connected, \(state.nicks.count) in the room, \(state.relayed) messages relayed")
            }))
        shutdown.add(
            room.state
                .map { $0.who }
                .distinctUntilChanged()
                .skip(1) // the empty room at the start
                .subscribe(onNext: { print("chat-daemon: here: \($0.isEmpty ? "nobody" : $0.joined(separator: ", "))") }))

        let serve = group.rx.serve(host: host, port: port) { served in
            session(served, id: nextID.wrappingAdd(1, ordering: .relaxed).oldValue, room: room, roomLoop: roomLoop)
        }
        let server = ServerService(serve, drainedBy: daemon, name: Endpoint.format(host: host, port: port)) { server in
            started.withLock { $0 = server }
            print("chat-daemon: listening on \(server.address)")
        }

        try await daemon.runDaemon(with: [server], logger: logger)
        if let server = started.withLock({ $0 }) {
            print("chat-daemon: stopped; served \(Console.count(server.servedCount, "connection")), relayed \(Console.count(room.state.value.relayed, "message"))")
        }
    }
}

/// One client, on its connection's loop: its lines go to the room's
/// write-only input on the room's loop; the room's deliveries addressed to
/// it come back to this loop (`observe(on:)`) and are written, in order.
/// Completes when the connection is closed and the room has said goodbye.
func session(_ served: ServedConnection<TCPConnection>, id: ClientID, room: Room, roomLoop: Loop) -> Completable {
    let connection = served.connection
    // In order: a session stays on one loop, and work handed to the room's
    // loop from one thread runs in the order it was handed over.
    let tell: @Sendable (ChatCommand) -> Void = { command in
        roomLoop.execute { room.input.onNext(command) }
    }
    let farewellWritten = PublishSubject<Void>()
    let writes = room.deliveries
        .filter { $0.recipients.contains(id) }
        .take(while: { !$0.isFarewell }, behavior: .inclusive)
        .observe(on: served.loop)
        .concatMap { delivery -> Observable<Never> in
            guard let text = delivery.text else { return .empty() }
            return connection.write(text + "\n").asObservable()
        }
        .catch { _ in .empty() } // a client we cannot write to is done
        .do(onCompleted: { farewellWritten.onNext(()) })
    let reads = Observable.deferred { () -> Observable<ByteBuffer> in
        tell(.connected(id))
        return connection.rx.data
    }
    .take(until: farewellWritten) // stop reading (and close) once the goodbye is out
    .lineEvents(maxLength: Room.maxLineLength) // an over-long line is reported and skipped, not buffered
    .do(onNext: { event in
        switch event {
        case .line(let line): tell(.line(id, String(chatLine: line)))
        case .tooLong: tell(.lineTooLong(id))
        }
    })
    .ignoreElements()
    .catch { _ in .empty() } // a reset is a disconnect like any other
    .concat(
        Observable.deferred { () -> Observable<Never> in
            tell(.disconnected(id))
            return .empty()
        })
    return Observable.merge(writes, reads).asCompletable()
}
