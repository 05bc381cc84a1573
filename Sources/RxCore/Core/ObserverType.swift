/// A receiver of sequence events.
///
/// Observers see events in the grammar `next* (error | completed)?`. The
/// producer guarantees that `on(_:)` is never called concurrently for one
/// subscription.
public protocol ObserverType<Element> {
    /// The type of elements this observer receives.
    associatedtype Element

    /// Receives one event.
    func on(_ event: Event<Element>)
}

extension ObserverType {
    /// Sends `.next(element)`.
    @inlinable
    public func onNext(_ element: Element) {
        self.on(.next(element))
    }

    /// Sends `.completed`.
    @inlinable
    public func onCompleted() {
        self.on(.completed)
    }

    /// Sends `.error(error)`.
    @inlinable
    public func onError(_ error: Swift.Error) {
        self.on(.error(error))
    }
}
