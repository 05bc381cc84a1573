import RxCore
import RxUV
import RxUVHTTP
import RxUVWebSocket
import Synchronization

/// The chat: one `PublishSubject` every `/chat` socket listens to, whatever
/// loop its connection is on. A socket's messages go into it as
/// `name: text`; each socket sends what comes out, one message at a time
/// (the next after the last was written), and a socket with more than
/// `backlog` lines waiting is closed with 1008 rather than hold more.
final class ChatRoom: Sendable {
    private let lines = PublishSubject<String>()
    private let backlog: Int
    private let sent = Atomic<Int>(0)
    private let guests = Atomic<Int>(0)

    init(backlog: Int) {
        self.backlog = backlog
    }

    /// The lines said in the room so far.
    var messageCount: Int {
        sent.load(ordering: .relaxed)
    }

    /// `?name=` of the request, else `guest-N`.
    static func name(in request: HTTPServerRequest) -> String? {
        guard let query = request.query else { return nil }
        for pair in query.split(separator: "&") where pair.hasPrefix("name=") {
            let name = pair.dropFirst(5).prefix(32).filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            if !name.isEmpty { return String(name) }
        }
        return nil
    }

    /// `socket` in the room until it closes: what it says goes to everyone,
    /// what anyone says comes to it.
    func join(_ socket: WebSocket, name: String?) -> Completable {
        let name = name ?? "guest-\(guests.wrappingAdd(1, ordering: .relaxed).newValue)"
        let outbox = SocketOutbox(socket: socket, limit: backlog)
        let hearing = lines.subscribe(onNext: { line in outbox.post(line) })
        return socket.messages
            .do(onNext: { [self] message in
                guard case .text(let text) = message else { return }
                sent.wrappingAdd(1, ordering: .relaxed)
                lines.onNext("\(name): \(text)")
            })
            .ignoreElements()
            .asCompletable()
            .do(onDispose: { hearing.dispose() })
    }
}

/// What waits to be sent to one socket, on its loop: one send at a time, so
/// that a slow reader holds lines here (bounded) and not in the stream.
final class SocketOutbox: Sendable {
    private let socket: WebSocket
    private let limit: Int
    private let state: LoopBound<(waiting: [String], sending: Bool)>

    init(socket: WebSocket, limit: Int) {
        self.socket = socket
        self.limit = limit
        self.state = LoopBound(([], false), loop: socket.loop)
    }

    /// Queues `line` (from any thread).
    func post(_ line: String) {
        socket.loop.enter { [self] in
            guard state.value.waiting.count < limit else {
                state.value.waiting = []
                socket.close(code: .policyViolation, reason: "too slow")
                return
            }
            state.value.waiting.append(line)
            sendNext()
        }
    }

    private func sendNext() {
        guard !state.value.sending, !state.value.waiting.isEmpty else { return }
        let line = state.value.waiting.removeFirst()
        state.value.sending = true
        _ = socket.send(.text(line)).subscribe { [self] _ in
            socket.loop.enter { [self] in
                state.value.sending = false
                sendNext()
            }
        }
    }
}
