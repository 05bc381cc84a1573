extension ObservableType {
    /// Emits the elements of `self`, then, once `self` completes, those of `second`.
    ///
    /// An error from either ends the sequence. `second` is subscribed only
    /// after `self` completed. Disposing disposes the current subscription.
    ///
    ///     self:    --1--2--|
    ///     second:           --3--|      (subscribed at self's completion)
    ///     result:  --1--2----3--|
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element> where Source.Element == Element {
        Observable.concat([asObservable(), second.asObservable()])
    }

    /// Emits the elements of each observable of `sequence` in turn: the next
    /// one is subscribed only when the previous one completed.
    ///
    /// Completes after the last one completes (at once for an empty sequence);
    /// the first error ends the result. Disposing disposes the current
    /// subscription. Sources that complete synchronously are subscribed in a
    /// loop, so a long sequence does not grow the stack.
    ///
    ///     a:      --1--|
    ///     b:           --2--|
    ///     concat: --1----2--|
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        ConcatProducer(sources: sequence, count: nil)
    }

    /// Emits the elements of each observable of `collection` in turn; see
    /// `concat(_:)` for sequences.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Observable<Element> where Collection.Element == Observable<Element> {
        ConcatProducer(sources: collection, count: collection.count)
    }

    /// Emits the elements of each of `sources` in turn; see `concat(_:)` for sequences.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        ConcatProducer(sources: sources, count: sources.count)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Emits the elements of each inner observable in turn: an inner emitted
    /// while another one is running waits until that one completes.
    ///
    /// Completes when the outer sequence and every inner completed; any error
    /// ends the result. Same as `merge(maxConcurrent: 1)`.
    ///
    ///     outer:  -a------b----|
    ///     a:       -1--1|
    ///     b:              -2-2|
    ///     result: --1--1---2-2-|
    public func concat() -> Observable<Element.Element> {
        merge(maxConcurrent: 1)
    }
}

private final class ConcatSink<Observer: ObserverType>: Sink<Observer>, ObserverType, TailRecursiveSink, @unchecked Sendable {
    typealias Element = Observer.Element

    let tail: TailRecursion<Element>

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
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            scheduleMoveNext()
        }
    }

    func subscribe(toNext source: Observable<Element>) -> Disposable {
        source.subscribe(self)
    }

    func done() {
        forwardCompleted()
    }

    func extract(_ source: Observable<Element>) -> TailRecursion<Element>.Sources? {
        (source as? ConcatProducer<Element>)?.makeSources()
    }
}

private final class ConcatProducer<Element>: Producer<Element> {
    private let sources: SourceSequence<Element>

    init<Sources: Swift.Sequence>(sources: Sources, count: Int?) where Sources.Element == Observable<Element> {
        self.sources = SourceSequence(sources, count: count)
    }

    func makeSources() -> TailRecursion<Element>.Sources {
        sources.makeSources()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = ConcatSink(sources: makeSources(), observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
