@_spi(Bridge) import RxCore
import RxUV
import Synchronization

/// The Observable of `WebSocket.messages`: subscribed on the socket's loop
/// thread, the observer is handed to the socket at once (the messages held
/// for it first); from another thread, through the loop's door. The
/// subscription is one small object; disposing it before the end closes
/// the socket with 1001 (`messagesDisposed`).
final class WebSocketMessages: Producer<WebSocketMessage> {
    private let socket: WebSocket

    init(socket: WebSocket) {
        self.socket = socket
    }

    override func runSource<Observer: ObserverType>(_ observer: Observer) -> SourceStart where Observer.Element == WebSocketMessage {
        let subscription = WebSocketMessagesSubscription(socket: socket)
        guard socket.loop.isOnLoopThread else { return .subscribed(subscribeElsewhere(observer, subscription)) }
        socket.subscribe(Self.delivery(to: observer))
        return .subscribed(subscription)
    }

    /// What the socket calls with each event: a message goes to the
    /// observer's `onNext`, matched here, where `Event<WebSocketMessage>`
    /// is a concrete type. Passed on whole, the event would be matched in
    /// the observer's own generic code, which looks its type's metadata up
    /// in the run time at every message.
    private static func delivery<Observer: ObserverType>(to observer: Observer) -> (Event<WebSocketMessage>) -> Void
    where Observer.Element == WebSocketMessage {
        { event in
            if case .next(let message) = event {
                observer.onNext(message)
            } else {
                observer.on(event)
            }
        }
    }

    /// From another thread: handed over on the loop's, unless disposed
    /// first. Apart, so that the loop thread's path looks up no metadata
    /// for it.
    @inline(never)
    private func subscribeElsewhere<Observer: ObserverType>(_ observer: Observer, _ subscription: WebSocketMessagesSubscription) -> Disposable
    where Observer.Element == WebSocketMessage {
        let handed = UncheckedSendable(observer)
        socket.loop.enter { [socket] in
            guard !subscription.isDisposed else { return }
            socket.subscribe(WebSocketMessages.delivery(to: handed.value))
        }
        return subscription
    }
}

/// A subscription to `messages`: disposing it (once, from any thread) lets
/// the socket know on its loop thread.
final class WebSocketMessagesSubscription: Disposable, Sendable {
    private let socket: WebSocket
    private let disposed = Atomic(false)

    init(socket: WebSocket) {
        self.socket = socket
    }

    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        socket.loop.enter { [socket] in socket.messagesDisposed() }
    }
}
