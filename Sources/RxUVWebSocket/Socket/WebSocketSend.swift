@_spi(Bridge) import RxCore
@_spi(Bridge) import RxUV

/// The `Completable` of `WebSocket.send(_:)`, a `LoopStart`: subscribed on
/// the socket's loop thread, the message is checked, framed and handed to
/// the stream's one write primitive during the subscription
/// (`WebSocket.startSending`), with no sink and no closure between; from
/// another thread it starts through the loop's door, and keeps its place
/// among the sends even when disposed meanwhile.
final class WebSocketSend: LoopStart {
    private let socket: WebSocket
    private let message: WebSocketMessage

    init(socket: WebSocket, message: WebSocketMessage) {
        self.socket = socket
        self.message = message
        super.init(loop: socket.loop)
    }

    override class var startsWhenDisposed: Bool {
        true
    }

    override func start<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Never {
        socket.startSending(message, notifying: observer)
    }
}
