import Synchronization

extension ObservableType {
    /// Continues with the observable returned by `handler` when `self` fails.
    ///
    /// Elements and completion of `self` pass through. On an error, `handler`
    /// is called with it and its observable is subscribed in place of `self`
    /// (whose subscription ends); that observable's events, errors included,
    /// then pass through. If `handler` throws, that error is emitted.
    /// Disposing disposes the current subscription.
    ///
    ///     self:      --1--2--#
    ///     handler:           -3--|
    ///     catch:     --1--2---3--|
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        CatchProducer(source: asObservable(), handler: handler)
    }

    /// Emits `element` and completes when `self` fails, instead of the error.
    ///
    ///     self:                --1--2--#
    ///     catchAndReturn(0):   --1--2--0|
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        CatchProducer(source: asObservable(), handler: { _ in Observable.just(element) })
    }

    /// Subscribes to the observables of `sequence` one after another, moving
    /// to the next one each time the current one fails.
    ///
    /// Completes when one of them completes. When the last one fails, its
    /// error is emitted; an empty sequence completes at once. Disposing
    /// disposes the current subscription. Sources that fail synchronously are
    /// subscribed in a loop, so a long sequence does not grow the stack.
    ///
    ///     a:     --1--#
    ///     b:          --2--|
    ///     catch: --1----2--|
    public static func `catch`<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        CatchSequenceProducer(sources: sequence, count: nil)
    }

    /// RxSwift 6's spelling of `catch(_:)` over a sequence of sources: each
    /// error moves on to the next source; see `catch(_:)`.
    public static func `catch`<Sequence: Swift.Sequence>(sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        `catch`(sequence)
    }
}

/// The subscription a `catch` sink's events come from: the source's, then,
/// after an error, the replacement's. `generation` counts the errors, so
/// that a subscription that arrives after an error moved on (the source's,
/// when the source fails during its own subscribe) is disposed instead of
/// kept. Kept in the sink, under its lock, in place of a serial and a
/// single-assignment disposable; not nested in the generic sink, whose
/// unspecialised code would look its metadata up at every lock.
private struct CatchCurrent {
    var subscription: Disposable = NopDisposable()
    var generation = 0
    var isDisposed = false
}

private final class CatchSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    typealias Handler = (Swift.Error) throws -> Observable<Element>

    private let handler: Handler
    private let current = Mutex(CatchCurrent())

    init(handler: @escaping Handler, observer: Observer, cancel: SinkDisposer) {
        self.handler = handler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) {
        keep(source.subscribe(self), generation: 0)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .completed:
            forwardCompleted()
        case .error(let error):
            let generation = current.withLock { current -> Int in
                current.generation += 1
                return current.generation
            }
            do {
                let replacement = try handler(error)
                // Keeping it ends the failed subscription, as RxSwift's
                // serial disposable does: after the replacement's subscribe.
                keep(replacement.subscribe(CatchReplacementObserver(parent: self)), generation: generation)
            } catch {
                forwardError(error)
            }
        }
    }

    /// An element of the source, passed on with no `Event` built.
    func onNext(_ element: Element) {
        forwardNext(element)
    }

    /// The source completed: so does the result (no `Event` built).
    func onCompleted() {
        forwardCompleted()
    }

    fileprivate func replacementOn(_ event: Event<Element>) {
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
    }

    /// Keeps `subscription`, made in `generation`, as the current one and
    /// disposes the one it replaces; disposes `subscription` itself when the
    /// sink is disposed or an error has moved on since.
    private func keep(_ subscription: Disposable, generation: Int) {
        var replaced: Disposable = subscription
        current.withLock { current in
            guard !current.isDisposed, current.generation == generation else { return }
            swap(&replaced, &current.subscription)
        }
        replaced.dispose()
    }

    override func dispose() {
        var ended: Disposable = NopDisposable()
        current.withLock { current in
            guard !current.isDisposed else { return }
            current.isDisposed = true
            swap(&ended, &current.subscription)
        }
        ended.dispose()
        super.dispose()
    }
}

private struct CatchReplacementObserver<Observer: ObserverType>: ObserverType {
    typealias Element = Observer.Element

    let parent: CatchSink<Observer>

    func on(_ event: Event<Element>) {
        parent.replacementOn(event)
    }
}

private final class CatchProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let handler: (Swift.Error) throws -> Observable<Element>

    init(source: Observable<Element>, handler: @escaping (Swift.Error) throws -> Observable<Element>) {
        self.source = source
        self.handler = handler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = CatchSink(handler: handler, observer: observer, cancel: cancel)
        sink.run(source)
        return (sink: sink, subscription: NopDisposable())
    }
}

private final class CatchSequenceSink<Observer: ObserverType>: Sink<Observer>, ObserverType, TailRecursiveSink, @unchecked Sendable {
    typealias Element = Observer.Element

    let tail: TailRecursion<Element>
    // Written before a move is scheduled and read by the move (through the gate).
    private var lastError: Swift.Error?

    init(sources: TailRecursion<Element>.Sources, observer: Observer, cancel: SinkDisposer) {
        tail = TailRecursion(sources)
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        scheduleMoveNext()
        return tail
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .error(let error):
            lastError = error
            scheduleMoveNext()
        case .completed:
            forwardOn(event)
            dispose()
        }
    }

    func subscribe(toNext source: Observable<Element>) -> Disposable {
        source.subscribe(self)
    }

    func done() {
        if let lastError {
            forwardOn(.error(lastError))
        } else {
            forwardOn(.completed)
        }
        dispose()
    }

    func extract(_ source: Observable<Element>) -> TailRecursion<Element>.Sources? {
        (source as? CatchSequenceProducer<Element>)?.makeSources()
    }
}

/// The producer of `Observable.catch(_:)` over a sequence, `retry()` and `retry(_:)`.
final class CatchSequenceProducer<Element>: Producer<Element> {
    private let sources: SourceSequence<Element>

    init<Sources: Swift.Sequence>(sources: Sources, count: Int?) where Sources.Element == Observable<Element> {
        self.sources = SourceSequence(sources, count: count)
    }

    func makeSources() -> TailRecursion<Element>.Sources {
        sources.makeSources()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = CatchSequenceSink(sources: makeSources(), observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
