import RxCore

/// The decoder's events and end, handed to the socket.
struct WebSocketEventObserver: ObserverType {
    let socket: WebSocket

    func on(_ event: Event<WebSocketEvent>) {
        switch event {
        case .next(let event): socket.received(event)
        case .error(let error): socket.fail(error)
        case .completed: socket.inputCompleted()
        }
    }
}
