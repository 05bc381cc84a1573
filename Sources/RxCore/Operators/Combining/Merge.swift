import Synchronization

extension ObservableType where Element: ObservableConvertibleType {
    /// Emits the elements of every inner observable, as they arrive.
    ///
    /// Each inner is subscribed when the outer sequence emits it. Completes
    /// when the outer sequence and every inner completed; an error from the
    /// outer sequence or any inner ends the result and disposes everything.
    /// Events are delivered one at a time, even when inners emit on several
    /// threads. Disposing disposes the outer and every inner subscription.
    ///
    ///     outer:  -a---b-------|
    ///     a:       -1---1|
    ///     b:           --2---2|
    ///     merge:  --1--21----2|
    public func merge() -> Observable<Element.Element> {
        MergeProducer(source: asObservable(), selector: { $0 }, mode: .all)
    }

    /// Like `merge()`, with at most `maxConcurrent` inner subscriptions at
    /// once: an inner that arrives while all slots are taken is queued and
    /// subscribed when a running inner completes, in arrival order.
    ///
    ///     outer:              -a-b-------|
    ///     a:                   -1--1|
    ///     b:                         -2-2|   (waits for a)
    ///     merge(maxConcurrent: 1): --1--1-2-2|
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        MergeProducer(source: asObservable(), selector: { $0 }, mode: .limited(maxConcurrent))
    }
}

extension ObservableType {
    /// Emits the elements of all `sources`, as they arrive.
    ///
    /// Every source is subscribed at once, in order. Completes when all of
    /// them completed (at once when there are none); the first error ends the
    /// result and disposes the other subscriptions.
    ///
    ///     a:     --1---3--|
    ///     b:     ----2-----4|
    ///     merge: --1-2-3---4|
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Observable<Element> where Collection.Element == Observable<Element> {
        MergeArrayProducer(sources: Array(sources))
    }

    /// Emits the elements of all `sources`, as they arrive; see `merge(_:)`
    /// for collections.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        MergeArrayProducer(sources: sources)
    }

    /// Emits the elements of all `sources`, as they arrive; see `merge(_:)`
    /// for collections.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        MergeArrayProducer(sources: sources)
    }
}

/// The sink of `flatMap`, `flatMapFirst`, `merge()` and `Observable.merge`:
/// one subscription per inner, all alive at once.
///
/// The subscriptions, the counts and the serialiser live in a non-generic
/// `MergeInners` under its one lock: subscribing an inner, an inner's
/// element and completion, and the merge's own subscription and end touch
/// no generic state and build no `Event`, so unspecialised code looks up no
/// type metadata for them. An event is boxed (`MergeQueuedEvent`) only when
/// it must wait behind another delivery.
final class MergeSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType, MergeInnerParent, @unchecked Sendable
where Inner.Element == Observer.Element {
    typealias Element = SourceElement
    typealias Selector = (SourceElement) throws -> Inner

    private let selector: Selector
    private let firstOnly: Bool
    private let inners = MergeInners()
    /// The type of the observers of the inners, looked up once: in this
    /// unspecialised code, naming `MergeInnerObserver<…>` to make one per
    /// inner would look its metadata up in the runtime's tables each time.
    private let innerObserverType: any MergeInnerObserving<Observer.Element>.Type

    /// - Parameter firstOnly: ignore outer elements while an inner is active (`flatMapFirst`).
    init(selector: @escaping Selector, firstOnly: Bool, observer: Observer, cancel: SinkDisposer) {
        self.selector = selector
        self.firstOnly = firstOnly
        self.innerObserverType = mergeInnerObserverType(for: MergeSink<SourceElement, Inner, Observer>.self)
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes to the outer sequence.
    func run(_ source: Observable<SourceElement>) -> Disposable {
        inners.setSource(source.subscribe(self))
        return inners
    }

    /// Subscribes to each of `sources`, as if an outer sequence had emitted them and completed.
    func run(sources: [Observable<Observer.Element>]) -> Disposable {
        inners.expect(sources.count)
        for source in sources {
            guard let key = inners.slot() else { break }
            subscribeInner(source, key: key)
        }
        finishSource()
        return inners
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardTerminal(.error(error))
        case .completed:
            onCompleted()
        }
    }

    /// The outer sequence completed: the result completes once every inner
    /// has (with no `Event` built, the path a source's end takes).
    func onCompleted() {
        inners.endSource()
        finishSource()
    }

    /// Subscribes the inner observable `selector` makes of `element`.
    func onNext(_ element: SourceElement) {
        guard let key = inners.reserve(firstOnly: firstOnly) else { return }
        let inner: Observable<Observer.Element>
        do {
            inner = try selector(element).asObservable()
        } catch {
            forwardTerminal(error)
            return
        }
        subscribeInner(inner, key: key)
    }

    private func finishSource() {
        if inners.finishSource() {
            forwardCompletion()
        }
    }

    private func subscribeInner(_ inner: Observable<Observer.Element>, key: BagKey) {
        // Made through the stored type, and subscribed opened from the
        // existential: no metadata lookup per inner.
        let observer = innerObserverType.init(parent: self, key: key)
        inners.assign(inner.subscribe(observer), to: key)
    }

    /// An inner's element, delivered in turn without building an `Event`
    /// when no other delivery is under way.
    func innerNext(_ element: Observer.Element) {
        guard inners.claimDelivery() else {
            queueNext(element)
            return
        }
        forwardNext(element)
        if !inners.releaseDeliveryIfIdle() {
            drainDeliveries(inners.nextDelivery())
        }
    }

    func innerOn(_ event: Event<Observer.Element>, key: BagKey) {
        switch event {
        case .next:
            deliverInTurn(event)
        case .error:
            forwardTerminal(event)
        case .completed:
            innerCompleted(key: key)
        }
    }

    /// An inner completed: the result completes with the last one, once the
    /// outer sequence has completed too.
    func innerCompleted(key: BagKey) {
        if inners.complete(key) {
            forwardCompletion()
        }
    }

    /// Refuses further inners, then delivers `event` (an error) in turn.
    private func forwardTerminal(_ event: Event<Observer.Element>) {
        inners.stop()
        deliverInTurn(event)
    }

    /// `forwardTerminal(.error(error))`, out of line so that the element
    /// path builds no `Event`.
    @inline(never)
    private func forwardTerminal(_ error: Swift.Error) {
        forwardTerminal(.error(error))
    }

    /// Delivers `.completed` in turn (out of line, as above).
    @inline(never)
    private func forwardCompletion() {
        guard inners.claimLastDelivery() else {
            queueCompletion()
            return
        }
        forwardCompleted()
    }

    /// `deliverInTurn(.next(element))`, out of line: an `Event` built in
    /// the caller's body would look its metadata up on every call, even
    /// when nothing waits.
    @inline(never)
    private func queueNext(_ element: Observer.Element) {
        deliverInTurn(.next(element))
    }

    /// `deliverInTurn(.completed)`, out of line for the same reason.
    @inline(never)
    private func queueCompletion() {
        deliverInTurn(.completed)
    }

    /// Delivers `event` in turn: at once when the caller can take the
    /// emitter role (a terminal event stops the deliveries as it does),
    /// else boxed and queued for the current emitter; dropped once a
    /// terminal event was accepted. Out of line: the element path builds
    /// no `Event`.
    @inline(never)
    private func deliverInTurn(_ event: Event<Observer.Element>) {
        let isTerminal = event.isStopEvent
        guard isTerminal ? inners.claimLastDelivery() : inners.claimDelivery() else {
            drainDeliveries(inners.beginDelivery(MergeQueuedEvent(event), isTerminal: isTerminal))
            return
        }
        forwardOn(event)
        if isTerminal {
            dispose()
        } else if !inners.releaseDeliveryIfIdle() {
            drainDeliveries(inners.nextDelivery())
        }
    }

    /// The emitter loop: delivers `first` and every event queued meanwhile;
    /// a terminal event disposes the sink after it is forwarded.
    @inline(never)
    private func drainDeliveries(_ first: AnyObject?) {
        drainSerially(first, next: { inners.nextDelivery() }) { item in
            let event = unsafeDowncast(item, to: MergeQueuedEvent<Observer.Element>.self).event
            forwardOn(event)
            if event.isStopEvent {
                dispose()
            }
        }
    }
}

/// An event of a `MergeSink` that waits for its turn in the merge's
/// serialiser, boxed so that the serialiser's state stays non-generic.
private final class MergeQueuedEvent<Element> {
    let event: Event<Element>

    init(_ event: Event<Element>) {
        self.event = event
    }
}

/// The counts of a `MergeSink`, kept apart from its generic state.
struct MergeCounters {
    /// Inners subscribed and not yet completed.
    var activeCount = 0
    /// The outer sequence (or the source list) is done.
    var isSourceDone = false
    /// A terminal event was decided: no more inners are subscribed.
    var isStopped = false

    /// Whether the result completes now (the outer is done and no inner is
    /// left); stops the counters when it does.
    mutating func stopIfFinished() -> Bool {
        guard isSourceDone, activeCount == 0, !isStopped else { return false }
        isStopped = true
        return true
    }
}

/// The observer of one inner of a `MergeSink` or a `MergeLimitedSink`, made
/// through a type the sink stored (see `MergeSink.innerObserverType`).
protocol MergeInnerObserving<Element>: ObserverType {
    /// `parent` is the sink the observer reports to; `key` is the inner's
    /// slot in its `MergeInners`.
    init(parent: AnyObject, key: BagKey)
}

/// What an inner's observer reports to: a `MergeSink` or a
/// `MergeLimitedSink`.
protocol MergeInnerParent<InnerElement>: AnyObject {
    associatedtype InnerElement
    /// An inner's event (its slot is `key`).
    func innerOn(_ event: Event<InnerElement>, key: BagKey)
    /// An inner's element, with no `Event` built.
    func innerNext(_ element: InnerElement)
    /// The inner in slot `key` completed.
    func innerCompleted(key: BagKey)
}

/// The observer of one inner of a merging sink, made through the type the
/// sink stored.
private struct MergeInnerObserver<Parent: MergeInnerParent>: MergeInnerObserving {
    typealias Element = Parent.InnerElement

    let parent: Parent
    let key: BagKey

    init(parent: AnyObject, key: BagKey) {
        // Always the sink that stored this type.
        self.parent = unsafeDowncast(parent, to: Parent.self)
        self.key = key
    }

    func on(_ event: Event<Element>) {
        parent.innerOn(event, key: key)
    }

    func onNext(_ element: Element) {
        parent.innerNext(element)
    }

    func onCompleted() {
        parent.innerCompleted(key: key)
    }
}

/// The observer type of a merging sink's inners.
func mergeInnerObserverType<Parent: MergeInnerParent>(for parent: Parent.Type) -> any MergeInnerObserving<Parent.InnerElement>.Type {
    MergeInnerObserver<Parent>.self
}

/// How a merging producer takes its inners: all at once (`flatMap`,
/// `merge()`), only while none is active (`flatMapFirst`), or at most so
/// many at once, the rest queued (`merge(maxConcurrent:)`, `concat()`,
/// `concatMap`).
enum MergeMode {
    case all
    case firstOnly
    case limited(Int)
}

/// The producer of every merging operator: `flatMap`, `flatMapFirst`,
/// `merge()`, `merge(maxConcurrent:)`, `concat()` and `concatMap`, whose
/// sink its mode picks.
final class MergeProducer<SourceElement, Inner: ObservableConvertibleType>: Producer<Inner.Element> {
    private let source: Observable<SourceElement>
    private let selector: (SourceElement) throws -> Inner
    private let mode: MergeMode

    init(source: Observable<SourceElement>, selector: @escaping (SourceElement) throws -> Inner, mode: MergeMode) {
        self.source = source
        self.selector = selector
        self.mode = mode
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Inner.Element {
        switch mode {
        case .all, .firstOnly:
            let sink = MergeSink(selector: selector, firstOnly: mode.isFirstOnly, observer: observer, cancel: cancel)
            return (sink: sink, subscription: sink.run(source))
        case .limited(let maxConcurrent):
            let sink = MergeLimitedSink(selector: selector, maxConcurrent: maxConcurrent, observer: observer, cancel: cancel)
            return (sink: sink, subscription: sink.run(source))
        }
    }
}

extension MergeMode {
    fileprivate var isFirstOnly: Bool {
        if case .firstOnly = self { return true }
        return false
    }
}

private final class MergeArrayProducer<Element>: Producer<Element> {
    private let sources: [Observable<Element>]

    init(sources: [Observable<Element>]) {
        self.sources = sources
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = MergeSink<Observable<Element>, Observable<Element>, Observer>(selector: { $0 }, firstOnly: false, observer: observer, cancel: cancel)
        let subscription = sink.run(sources: sources)
        return (sink: sink, subscription: subscription)
    }
}
