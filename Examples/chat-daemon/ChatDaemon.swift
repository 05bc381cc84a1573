import ArgumentParser
import ExampleSupport
import RxCore
import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// `chat-daemon`: a line-based chat over TCP, built as a one-way data flow
/// around a `Room` (see Room.swift).
@main
struct ChatDaemon: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat-daemon",
        abstract: "A line-based chat over TCP: the first line is your nick, then every line goes to the others.",
        discussion: """
            Commands: /who lists the nicks, /quit leaves. Lines longer than \
            \(Room.maxLineLength) bytes are refused. SIGHUP logs the counters; SIGINT \
            or SIGTERM tells every client "* server shutting down", closes them \
            and exits 0. Exits 1 when it cannot listen.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 lets the system choose.")
    var port = 6667

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
    }

    func run() throws {
        Console.lineBuffered()
        let loop = try Loop()
        let (host, port) = (host, port)
        let room = Room()
        let bag = DisposeBag()
        let stopping = PublishSubject<Void>()
        let finished = PublishSubject<Void>()
        var open: [ClientID: TCPConnection] = [:]
        var nextID = 0
        var exitCode: Int32 = 0

        Observable.merge(loop.rx.signal(SIGINT), loop.rx.signal(SIGTERM))
            .take(1)
            .take(until: finished)
            .subscribe(onNext: { _ in
                print("chat-daemon: shutting down, \(Console.count(room.state.value.connected, "client")) connected")
                stopping.onNext(())
                room.input.onNext(.shutdown)
            })
            .disposed(by: bag)
        loop.rx.signal(SIGHUP)
            .take(until: finished)
            .subscribe(onNext: { _ in
                let state = room.state.value
                print("chat-daemon: \(state.connected) connected, \(state.nicks.count) in the room, \(state.relayed) messages relayed")
            })
            .disposed(by: bag)
        room.state
            .map { $0.who }
            .distinctUntilChanged()
            .skip(1) // the empty room at the start
            .take(until: finished)
            .subscribe(onNext: { print("chat-daemon: here: \($0.isEmpty ? "nobody" : $0.joined(separator: ", "))") })
            .disposed(by: bag)
        // Goodbyes get 2 s to reach clients that do not read; then every connection closes.
        stopping.take(1)
            .flatMap { loop.rx.timer(after: .seconds(2)) }
            .take(until: finished)
            .subscribe(onNext: { _ in open.values.forEach { $0.close() } })
            .disposed(by: bag)

        loop.rx.listen(host: host, port: port, onListening: { print("chat-daemon: listening on \($0)") })
            .take(until: stopping)
            .flatMap { connection -> Observable<Never> in
                let id = nextID
                nextID += 1
                open[id] = connection
                return session(connection, id: id, room: room)
                    .do(onDispose: { open[id] = nil })
            }
            .subscribe(
                onError: { error in
                    let reason = (error as? UVError)?.shortDescription ?? "\(error)"
                    Console.error("chat-daemon: cannot listen on \(Endpoint.format(host: host, port: port)): \(reason)")
                    exitCode = 1
                    finished.onNext(())
                },
                onCompleted: {
                    print("chat-daemon: stopped; served \(Console.count(nextID, "connection")), relayed \(Console.count(room.state.value.relayed, "message"))")
                    finished.onNext(())
                }
            )
            .disposed(by: bag)

        loop.run()
        try loop.close()
        if exitCode != 0 {
            throw ExitCode(exitCode)
        }
    }
}

/// One client: its lines go to the room's write-only input; the room's
/// deliveries addressed to it are written back, in order. Completes when the
/// connection is closed and the room has said goodbye.
func session(_ connection: TCPConnection, id: ClientID, room: Room) -> Observable<Never> {
    let farewellWritten = PublishSubject<Void>()
    let writes = room.deliveries
        .filter { $0.recipients.contains(id) }
        .take(while: { !$0.isFarewell }, behavior: .inclusive)
        .concatMap { delivery -> Observable<Never> in
            guard let text = delivery.text else { return .empty() }
            return connection.write(text + "\n").asObservable()
        }
        .catch { _ in .empty() } // a client we cannot write to is done
        .do(onCompleted: { farewellWritten.onNext(()) })
    let reads = Observable.deferred { () -> Observable<ByteBuffer> in
        room.input.onNext(.connected(id))
        return connection.rx.data
    }
    .take(until: farewellWritten) // stop reading (and close) once the goodbye is out
    .lineEvents(maxLength: Room.maxLineLength) // an over-long line is reported and skipped, not buffered
    .do(onNext: { event in
        switch event {
        case .line(let line): room.input.onNext(.line(id, String(chatLine: line)))
        case .tooLong: room.input.onNext(.lineTooLong(id))
        }
    })
    .ignoreElements()
    .catch { _ in .empty() } // a reset is a disconnect like any other
    .concat(
        Observable.deferred { () -> Observable<Never> in
            room.input.onNext(.disconnected(id))
            return .empty()
        })
    return Observable.merge(writes, reads)
}
