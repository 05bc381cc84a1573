import RxCore

/// The decoder's events and end, handed to the socket.
struct WebSocketEventObserver: ObserverType {
    let socket: WebSocket

    /// An event, passed on as it is (`on(.next(_:))` would copy it into
    /// an `Event` and destroy it there, every frame).
    func onNext(_ event: WebSocketEvent) {
        socket.received(event)
    }

    func on(_ event: Event<WebSocketEvent>) {
        switch event {
        case .next(let event): socket.received(event)
        case .error(let error): socket.fail(error)
        case .completed: socket.inputCompleted()
        }
    }
}
