import Synchronization

/// The producer of a `Single`'s `flatMap`, `flatMapMaybe` and
/// `flatMapCompletable`: the source's one element goes through `selector`,
/// whose sequence is then subscribed and passed on.
///
/// The events are those of `Observable.flatMap` on a source of at most one
/// element (RxSwift builds these operators on it): the inner's elements
/// and errors as they come, an error of the source or of `selector` at
/// once, and the completion once both the source and the inner have
/// completed (at the source's completion when it had no element). It is
/// one sink with the inner's subscription in its own state, where a merge
/// keeps a group of inners, a bag and a serialiser for elements that
/// cannot come.
///
/// Generic over the inner's trait and element, not over any sequence: the
/// selector is stored as the operator was given it, with no closure made
/// around it to return its `PrimitiveSequence` as a generic value.
final class SingleFlatMapProducer<SourceElement, Trait, Result>: Producer<Result> {
    typealias Inner = PrimitiveSequence<Trait, Result>

    private let source: Observable<SourceElement>
    private let selector: (SourceElement) throws -> Inner

    init(source: Observable<SourceElement>, selector: @escaping (SourceElement) throws -> Inner) {
        self.source = source
        self.selector = selector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable)
    where Observer.Element == Result {
        let sink = SingleFlatMapSink<SourceElement, Trait, Observer>(selector: selector, observer: observer, cancel: cancel)
        sink.run(source)
        return (sink: sink, subscription: NopDisposable())
    }
}

/// Where a `Single`'s `flatMap` stands: the source's subscription and the
/// inner's, each kept once it is made and until it ends (disposed as it
/// completes, as a merge disposes each of its own), and which of the two
/// have ended. Not nested in the generic sink, whose unspecialised code
/// would look its metadata up at every lock.
private struct SingleFlatMapState {
    var source: Disposable = NopDisposable()
    var inner: Disposable = NopDisposable()
    var innerStarted = false
    var innerCompleted = false
    var sourceCompleted = false
    var isDisposed = false
}

/// The source's observer, and through `SingleFlatMapInner` the inner's.
/// The source's completion and the inner's may come on two threads: the
/// lock lets exactly one of them complete the result, after both.
private final class SingleFlatMapSink<SourceElement, Trait, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = SourceElement
    typealias Inner = PrimitiveSequence<Trait, Observer.Element>

    private let selector: (SourceElement) throws -> Inner
    private let state = Mutex(SingleFlatMapState())

    init(selector: @escaping (SourceElement) throws -> Inner, observer: Observer, cancel: SinkDisposer) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes to the source, keeping its subscription unless the source
    /// ended during it.
    func run(_ source: Observable<SourceElement>) {
        var subscription = source.subscribe(self)
        state.withLock { state in
            guard !state.isDisposed, !state.sourceCompleted else { return }
            swap(&subscription, &state.source)
        }
        subscription.dispose()
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardError(error)
        case .completed:
            onCompleted()
        }
    }

    /// The source's element: its inner is subscribed. A source that keeps
    /// the trait has no second one; one that did would be ignored.
    func onNext(_ element: SourceElement) {
        let first = state.withLock { state -> Bool in
            guard !state.innerStarted, !state.isDisposed else { return false }
            state.innerStarted = true
            return true
        }
        guard first else { return }
        let inner: Inner
        do {
            inner = try selector(element)
        } catch {
            forwardError(error)
            return
        }
        var subscription = inner.asObservable().subscribe(SingleFlatMapInner(parent: self))
        // Kept unless the result was disposed meanwhile, or the inner ended
        // during its subscribe: then it is disposed here.
        state.withLock { state in
            guard !state.isDisposed, !state.innerCompleted else { return }
            swap(&subscription, &state.inner)
        }
        subscription.dispose()
    }

    /// The source completed: so does the result when no inner runs, else
    /// the source's subscription ends and the inner goes on.
    func onCompleted() {
        var ended: Disposable = NopDisposable()
        let completes = state.withLock { state -> Bool in
            state.sourceCompleted = true
            guard state.innerStarted, !state.innerCompleted else { return true }
            swap(&ended, &state.source)
            return false
        }
        guard completes else {
            ended.dispose()
            return
        }
        forwardCompleted()
    }

    fileprivate func innerNext(_ element: Observer.Element) {
        forwardNext(element)
    }

    fileprivate func innerError(_ error: Swift.Error) {
        forwardError(error)
    }

    /// The inner completed: its subscription ends, and the result completes
    /// when the source has.
    fileprivate func innerCompleted() {
        var ended: Disposable = NopDisposable()
        let completes = state.withLock { state -> Bool in
            state.innerCompleted = true
            swap(&ended, &state.inner)
            return state.sourceCompleted
        }
        ended.dispose()
        if completes { forwardCompleted() }
    }

    override func dispose() {
        var source: Disposable = NopDisposable()
        var inner: Disposable = NopDisposable()
        state.withLock { state in
            guard !state.isDisposed else { return }
            state.isDisposed = true
            swap(&source, &state.source)
            swap(&inner, &state.inner)
        }
        source.dispose()
        inner.dispose()
        super.dispose()
    }
}

/// The inner's observer: its events go to the sink, elements and the
/// completion with no `Event` built.
private struct SingleFlatMapInner<SourceElement, Trait, Observer: ObserverType>: ObserverType {
    typealias Element = Observer.Element

    let parent: SingleFlatMapSink<SourceElement, Trait, Observer>

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            parent.innerNext(element)
        case .error(let error):
            parent.innerError(error)
        case .completed:
            parent.innerCompleted()
        }
    }

    func onNext(_ element: Element) {
        parent.innerNext(element)
    }

    func onCompleted() {
        parent.innerCompleted()
    }
}
