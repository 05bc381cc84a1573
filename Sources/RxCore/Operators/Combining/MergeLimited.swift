import Synchronization

/// The sink of `merge(maxConcurrent:)`, `concat()` and `concatMap`: at most
/// `maxConcurrent` inner subscriptions, the others queued in arrival order.
///
/// As `MergeSink`, its counts live apart from its generic serialiser, in a
/// non-generic `MergeLimits` under their own lock (the queued inners kept
/// as `AnyObject`s), and its inners' observers are made through a type
/// looked up once: subscribing an inner and an inner's completion, once per
/// element of a `concatMap`, touch no generic state and build no `Event`,
/// so unspecialised code looks up no type metadata for them. The
/// serialiser's lock is taken only to deliver events.
final class MergeLimitedSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType, MergeInnerParent,
    @unchecked Sendable
where Inner.Element == Observer.Element {
    typealias Element = SourceElement
    typealias Selector = (SourceElement) throws -> Inner

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: SerialDeliveryState, @unchecked Sendable {
        var delivery = SerialDelivery<Event<Observer.Element>>()
    }

    private let selector: Selector
    private let state = Mutex(State())
    private let limits: Mutex<MergeLimits>
    private let inners = MergeInners()
    /// The type of the inners' observers, looked up once (as `MergeSink`'s).
    private let innerObserverType: any MergeInnerObserving<Observer.Element>.Type

    init(selector: @escaping Selector, maxConcurrent: Int, observer: Observer, cancel: SinkDisposer) {
        self.selector = selector
        self.limits = Mutex(MergeLimits(maxConcurrent: maxConcurrent))
        self.innerObserverType = mergeInnerObserverType(for: MergeLimitedSink<SourceElement, Inner, Observer>.self)
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        inners.setSource(source.subscribe(self))
        return inners
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardErrorSerially(error)
        case .completed:
            inners.endSource()
            if limits.withLock({ $0.finishSource() }) {
                forwardCompletion()
            }
        }
    }

    func onNext(_ element: SourceElement) {
        // As in RxSwift, the selector runs when the element arrives, even
        // if the inner has to wait for a slot.
        let inner: Observable<Observer.Element>
        do {
            inner = try selector(element).asObservable()
        } catch {
            forwardErrorSerially(error)
            return
        }
        let subscribeNow = limits.withLock { $0.admit(inner) }
        if subscribeNow {
            subscribeInner(inner)
        }
    }

    private func subscribeInner(_ inner: Observable<Observer.Element>) {
        guard let key = inners.slot() else { return }
        // Made through the stored type: no metadata lookup per inner.
        let observer = innerObserverType.init(parent: self, key: key)
        inners.assign(inner.subscribe(observer), to: key)
    }

    /// An inner's element, delivered in turn without building an `Event`
    /// when no other delivery is under way.
    func innerNext(_ element: Observer.Element) {
        forwardNextSerially(element, in: state)
    }

    func innerOn(_ event: Event<Observer.Element>, key: BagKey) {
        switch event {
        case .next, .error:
            forwardSerially(event, in: state)
        case .completed:
            innerCompleted(key: key)
        }
    }

    /// An inner completed: its slot goes to the oldest queued inner, or the
    /// result completes once the outer sequence has and no inner is left.
    func innerCompleted(key: BagKey) {
        inners.release(key)
        switch limits.withLock({ $0.innerCompleted() }) {
        case .nothing:
            break
        case .complete:
            forwardCompletion()
        case .startQueued:
            startQueued()
        }
    }

    /// Subscribes queued inners while slots are handed over. A queued inner
    /// that completes synchronously hands its slot back to this loop, so a
    /// long queue does not grow the stack.
    @inline(never)
    private func startQueued() {
        while let inner = limits.withLock({ $0.nextQueued() }) {
            // Always an inner this sink queued.
            subscribeInner(unsafeDowncast(inner, to: Observable<Observer.Element>.self))
        }
    }

    /// Delivers `.error(error)` in turn (out of line, so that the element
    /// path builds no `Event`).
    @inline(never)
    private func forwardErrorSerially(_ error: Swift.Error) {
        forwardSerially(.error(error), in: state)
    }

    /// Delivers `.completed` in turn (out of line, as above).
    @inline(never)
    private func forwardCompletion() {
        forwardSerially(.completed, in: state)
    }
}

/// The counts and the queue of a `MergeLimitedSink`, kept apart from its
/// generic state: the queued inners are `Observable`s held as `AnyObject`.
struct MergeLimits: @unchecked Sendable {
    /// What an inner's completion asks of the sink.
    enum Completion {
        case nothing
        /// The result completes.
        case complete
        /// Subscribe the queued inners handed a slot.
        case startQueued
    }

    let maxConcurrent: Int
    /// Running inners plus slots handed over to queued ones.
    var activeCount = 0
    var isSourceDone = false
    var queue = RingQueue<AnyObject>()
    /// Freed slots whose queued inner is yet to be subscribed.
    var handovers = 0
    /// `true` while a thread subscribes queued inners.
    var isStartingQueued = false
    /// The completion was decided.
    var isFinished = false

    init(maxConcurrent: Int) {
        self.maxConcurrent = maxConcurrent
    }

    /// Takes a slot for `inner` (`true`: subscribe it now) or queues it.
    mutating func admit(_ inner: AnyObject) -> Bool {
        if activeCount < maxConcurrent {
            activeCount += 1
            return true
        }
        queue.enqueue(inner)
        return false
    }

    /// The outer sequence completed: whether the result completes now.
    mutating func finishSource() -> Bool {
        isSourceDone = true
        return finishIfDone()
    }

    /// An inner completed.
    mutating func innerCompleted() -> Completion {
        if queue.count > handovers {
            // Hand the slot to the oldest queued inner.
            handovers += 1
            if isStartingQueued { return .nothing }
            isStartingQueued = true
            return .startQueued
        }
        activeCount -= 1
        return finishIfDone() ? .complete : .nothing
    }

    /// The next queued inner handed a slot, or `nil` (and no one starts
    /// queued inners any more) when none is.
    mutating func nextQueued() -> AnyObject? {
        guard handovers > 0 else {
            isStartingQueued = false
            return nil
        }
        handovers -= 1
        return queue.dequeue()
    }

    private mutating func finishIfDone() -> Bool {
        guard isSourceDone, activeCount == 0, !isFinished else { return false }
        isFinished = true
        return true
    }
}
