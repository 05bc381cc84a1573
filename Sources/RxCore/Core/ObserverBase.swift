import Synchronization

/// An observer that calls a closure for each event and ignores everything
/// after the first terminal event.
final class AnonymousObserver<Element>: ObserverType {
    typealias EventHandler = (Event<Element>) -> Void

    private let eventHandler: EventHandler
    private let stopped = Atomic<Bool>(false)

    init(_ eventHandler: @escaping EventHandler) {
        self.eventHandler = eventHandler
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if !stopped.load(ordering: .relaxed) {
                eventHandler(event)
            }
        case .error, .completed:
            if !stopped.exchange(true, ordering: .acquiringAndReleasing) {
                eventHandler(event)
            }
        }
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
