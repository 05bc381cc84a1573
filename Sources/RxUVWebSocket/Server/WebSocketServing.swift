@_spi(Bridge) import RxCore
import RxUV
import RxUVHTTP
import Synchronization

/// The upgraded connection's life as a `Completable` (what `HTTPUpgrade`
/// runs): the socket on its stream, the handler's work, the drain's close;
/// completes when the socket ends. Subscribed on the connection's loop
/// thread, with one object (`WebSocketServed`) holding it all.
final class WebSocketServing: Producer<Never> {
    private let connection: HTTPUpgradedConnection
    private let request: HTTPServerRequest
    private let subprotocol: String?
    private let compression: WebSocketDeflateParameters?
    private let settings: WebSocketSettings
    private let handler: WebSocketHandler

    init(
        _ connection: HTTPUpgradedConnection, request: HTTPServerRequest, subprotocol: String?, compression: WebSocketDeflateParameters?,
        settings: WebSocketSettings, handler: @escaping WebSocketHandler
    ) {
        self.connection = connection
        self.request = request
        self.subprotocol = subprotocol
        self.compression = compression
        self.settings = settings
        self.handler = handler
    }

    override func runSource<Observer: ObserverType>(_ observer: Observer) -> SourceStart where Observer.Element == Never {
        let stream = connection.stream
        let socket = WebSocket(
            stream: stream, incoming: stream.receivedData, role: .server, subprotocol: subprotocol, compression: compression, settings: settings)
        let context = ReportContext(loop: connection.loop, server: connection.server, peer: connection.peer)
        let work = handler(socket, request).asObservable().subscribe(WebSocketHandlerObserver(socket: socket, context: context))
        let draining = connection.quiesce.subscribe(WebSocketDrainObserver(socket: socket))
        let served = WebSocketServed(socket: socket, work: work, draining: draining)
        // The connection's life is the socket's: it ends when the socket does.
        _ = socket.whenEnded { _ in
            if !served.isDisposed { observer.on(.completed) }
        }
        return .subscribed(served)
    }
}

/// What a served socket holds while it lives: the handler's work and the
/// drain's subscription; disposing it (the server's reset) stops them and
/// the socket.
final class WebSocketServed: Disposable, Sendable {
    let socket: WebSocket
    private let work: Disposable
    private let draining: Disposable
    private let disposed = Atomic(false)

    init(socket: WebSocket, work: Disposable, draining: Disposable) {
        self.socket = socket
        self.work = work
        self.draining = draining
    }

    /// The server let the connection go: its end is told to nobody.
    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        work.dispose()
        draining.dispose()
        socket.stop()
    }
}

/// The handler's work ended: done, the socket closes with 1000; failed,
/// the error is reported and it closes with 1011.
struct WebSocketHandlerObserver: ObserverType {
    let socket: WebSocket
    let context: ReportContext

    func on(_ event: Event<Never>) {
        switch event {
        case .completed:
            socket.close()
        case .error(let error):
            report(error, context)
            socket.close(code: .internalError)
        }
    }
}

/// The server drains: the socket closes with 1001 (going away).
struct WebSocketDrainObserver: ObserverType {
    let socket: WebSocket

    func on(_ event: Event<Void>) {
        if case .next = event { socket.close(code: .goingAway) }
    }
}
