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
// @unchecked Sendable: every mutable field is read and written under `lock`.
// Elements go to each subscriber on the thread that emits them, as in
// RxSwift; the element type itself is not required to be Sendable.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, SubjectUnsubscribing, @unchecked Sendable {
    /// The subject is its own observer.
    public typealias Observer = AsyncSubject<Element>

    // Plain stored properties under a lock whose type does not depend on
    // `Element`, as in `PublishSubject`: in unspecialised code a lock over a
    // state struct holding an `Element` costs metadata lookups on every call.
    private let lock = Mutex<Void>(())
    private var subscriptions = Bag<SubjectSubscription<Element>>()
    private var lastElement: Element?
    /// `.next(last)` when it completed with an element, else the terminal event.
    private var stoppedEvent: Event<Element>?

    /// Creates a subject with no subscribers and no element.
    public override init() {
        super.init()
    }

    /// `true` while at least one subscriber is subscribed.
    public var hasObservers: Bool {
        lock.withLock { _ in !subscriptions.isEmpty }
    }

    /// Stores the element of a `.next`; on a terminal event emits the last
    /// element and `.completed` (or the error) to the current subscribers.
    /// Ignored after a terminal event.
    public func on(_ event: Event<Element>) {
        var stopped: Event<Element>?
        var receivers: [SubjectSubscription<Element>] = []
        lock.withLock { _ in
            if stoppedEvent != nil { return }
            switch event {
            case .next(let element):
                lastElement = element
                return
            case .error:
                stoppedEvent = event
            case .completed:
                stoppedEvent = lastElement.map { .next($0) } ?? .completed
            }
            lastElement = nil
            receivers = subscriptions.elements
            subscriptions.removeAll()
            stopped = stoppedEvent
        }
        guard let stopped else { return }
        dispatch(receivers, stopped)
        if case .next = stopped {
            dispatch(receivers, .completed)
        }
    }

    /// Subscribes `observer` to the subject's outcome.
    ///
    /// - Returns: a disposable that removes the subscriber.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        var outcome: SubscribeOutcome<Element>?
        lock.withLock { _ in
            if let stoppedEvent {
                outcome = .stopped(stoppedEvent)
                return
            }
            let subscription = SubjectSubscription(observer, owner: self)
            subscription.key = subscriptions.insert(subscription)
            outcome = .subscribed(subscription)
        }
        if case .stopped(.next) = outcome! {
            _ = outcome!.finish(observer)
            observer.on(.completed)
            return Disposables.create()
        }
        return outcome!.finish(observer)
    }

    func unsubscribe(_ key: BagKey) {
        lock.withLock { _ in _ = subscriptions.removeKey(key) }
    }

    /// Returns the subject itself.
    public func asObserver() -> AsyncSubject<Element> {
        self
    }
}
