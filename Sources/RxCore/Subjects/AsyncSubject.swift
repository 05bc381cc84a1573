import Synchronization

/// A subject that emits only the last element it received, followed by
/// `.completed`, when it completes; an error is passed on without an element.
///
/// Elements are stored, never delivered on arrival. On `.completed` every
/// subscriber receives the last element (if there was one) and then
/// `.completed`; on `.error` every subscriber receives the error. A subscriber
/// that arrives after the subject stopped receives the same at once.
///
/// The subject delivers exactly once (its terminal event), so its deliveries
/// never overlap: events that arrive after the stop, from any thread or from
/// inside a subscriber, are ignored. Nothing reaches a subscription after it
/// was disposed. Like RxSwift's, this subject has no `dispose()`.
///
///     source:   --1--2--3--|
///     receives: -----------(3|)
// @unchecked Sendable: every mutable field is read and written under `state`'s
// lock. Elements go to each subscriber on the thread that emits them, as in
// RxSwift; the element type itself is not required to be Sendable.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, SubjectUnsubscribing, @unchecked Sendable {
    /// The subject is its own observer.
    public typealias Observer = AsyncSubject<Element>

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: @unchecked Sendable {
        var subscriptions = Bag<SubjectSubscription<Element>>()
        var lastElement: Element?
        /// `.next(last)` when it completed with an element, else the terminal event.
        var stoppedEvent: Event<Element>?
    }

    private let state = Mutex(State())

    /// Creates a subject with no subscribers and no element.
    public override init() {
        super.init()
    }

    /// `true` while at least one subscriber is subscribed.
    public var hasObservers: Bool {
        state.withLock { !$0.subscriptions.isEmpty }
    }

    /// Stores the element of a `.next`; on a terminal event emits the last
    /// element and `.completed` (or the error) to the current subscribers.
    /// Ignored after a terminal event.
    public func on(_ event: Event<Element>) {
        let delivery = state.locked { state -> (Event<Element>, [SubjectSubscription<Element>])? in
            if state.stoppedEvent != nil { return nil }
            switch event {
            case .next(let element):
                state.lastElement = element
                return nil
            case .error:
                state.stoppedEvent = event
            case .completed:
                state.stoppedEvent = state.lastElement.map { .next($0) } ?? .completed
            }
            state.lastElement = nil
            let receivers = state.subscriptions.elements
            state.subscriptions.removeAll()
            return (state.stoppedEvent!, receivers)
        }
        guard let (stoppedEvent, receivers) = delivery else { return }
        dispatch(receivers, stoppedEvent)
        if case .next = stoppedEvent {
            dispatch(receivers, .completed)
        }
    }

    /// Subscribes `observer` to the subject's outcome.
    ///
    /// - Returns: a disposable that removes the subscriber.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let outcome = state.locked { state -> SubscribeOutcome<Element> in
            if let stoppedEvent = state.stoppedEvent {
                return .stopped(stoppedEvent)
            }
            let subscription = SubjectSubscription(observer, owner: self)
            subscription.key = state.subscriptions.insert(subscription)
            return .subscribed(subscription)
        }
        if case .stopped(.next) = outcome {
            _ = outcome.finish(observer)
            observer.on(.completed)
            return Disposables.create()
        }
        return outcome.finish(observer)
    }

    func unsubscribe(_ key: BagKey) {
        _ = state.withLock { $0.subscriptions.removeKey(key) }
    }

    /// Returns the subject itself.
    public func asObserver() -> AsyncSubject<Element> {
        self
    }
}
