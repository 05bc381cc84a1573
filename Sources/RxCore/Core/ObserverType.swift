/// A receiver of sequence events.
///
/// Observers see events in the grammar `next* (error | completed)?`. The
/// producer guarantees that `on(_:)` is never called concurrently for one
/// subscription.
public protocol ObserverType<Element>: SendableMetatype {
    /// The type of elements this observer receives.
    associatedtype Element

    /// Receives one event.
    func on(_ event: Event<Element>)

    /// Receives one element: the same as `on(.next(element))`.
    ///
    /// A default implementation forwards to `on(_:)`, so conforming types
    /// need only `on(_:)`. RxCore's own observers implement it directly,
    /// and its operators deliver elements through it.
    func onNext(_ element: Element)

    /// Receives the completion: the same as `on(.completed)`.
    ///
    /// A default implementation forwards to `on(_:)`. RxCore's own
    /// observers on the subscribe path implement it directly, and a source
    /// that completes at once (`just`) completes through it.
    func onCompleted()
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
