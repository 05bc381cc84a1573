@_spi(Bridge) import RxCore
import RxUV

/// The `Completable` of `WebSocket.send(_:)`: subscribed on the socket's
/// loop thread, the message is checked, framed and handed to the stream's
/// one write primitive during the subscription, with no sink and no
/// closure between (`WebSocket.startSending`); from another thread it goes
/// through the loop's door first.
final class WebSocketSend: Producer<Never> {
    private let socket: WebSocket
    private let message: WebSocketMessage

    init(socket: WebSocket, message: WebSocketMessage) {
        self.socket = socket
        self.message = message
    }

    override func runSource<Observer: ObserverType>(_ observer: Observer) -> Disposable? where Observer.Element == Never {
        guard socket.loop.isOnLoopThread else { return sendElsewhere(observer) }
        return socket.startSending(message, notifying: observer)
    }

    /// From another thread: checked and written on the loop's thread, in
    /// the order asked (a send keeps its place even when disposed
    /// meanwhile). Apart, so that the loop thread's path does not look up
    /// the metadata this one needs.
    @inline(never)
    private func sendElsewhere<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Never {
        let writing = SingleAssignmentDisposable()
        let handed = UncheckedSendable(observer)
        socket.loop.enter { [socket, message] in
            writing.setDisposable(socket.startSending(message, notifying: handed.value))
        }
        return writing
    }
}
