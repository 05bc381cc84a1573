extension ObservableType {
    /// Shares one subscription to this sequence through `subject`, from the
    /// moment `connect()` is called.
    ///
    /// Subscribers subscribe to `subject`. The same subject serves every
    /// connection: once the source has terminated, later subscribers receive
    /// what the stopped subject gives them (for a `PublishSubject`, the
    /// terminal event). Disposing the connection unsubscribes from the source.
    ///
    ///     source:        --1--2--|
    ///     connect at c:  c
    ///     subscriber:    --1--2--|
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: { subject })
    }

    /// Shares one subscription to this sequence through a subject made by
    /// `makeSubject`, from the moment `connect()` is called.
    ///
    /// A subject is made for the first subscriber or connection, and a new one
    /// after each connection ends (the source terminated, or the connection
    /// was disposed), so the connectable can be connected again.
    ///
    ///     source:        --1--2--|
    ///     connect at c:  c
    ///     subscriber:    --1--2--|
    public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: makeSubject)
    }

    /// For each subscriber: makes a subject with `subjectSelector`, passes a
    /// connectable over it to `selector`, subscribes to what `selector`
    /// returns and then connects.
    ///
    /// The result emits what the selected sequence emits and terminates with
    /// it. Disposing unsubscribes from the selected sequence and disconnects.
    /// If either closure throws, the error is emitted and nothing is subscribed.
    ///
    ///     source:                       --1--2--|
    ///     selector: { $0.map { $0 * 10 } }  --10-20-|
    public func multicast<Subject: SubjectType, Result>(
        _ subjectSelector: @escaping () throws -> Subject,
        selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
    ) -> Observable<Result> where Subject.Observer.Element == Element {
        Multicast(source: asObservable(), subjectSelector: subjectSelector, selector: selector)
    }

    /// A connectable sequence that shares one subscription through a
    /// `PublishSubject`: subscribers receive the elements emitted after they
    /// subscribed, once `connect()` is called. After the source terminates, a
    /// new subject is used for later subscribers and connections.
    ///
    ///     source:     --1--2--3--|
    ///     connect at:   c
    ///     subscriber:  ---2--3--|   (subscribed before c)
    public func publish() -> ConnectableObservable<Element> {
        multicast(makeSubject: { PublishSubject<Element>() })
    }

    /// A connectable sequence that shares one subscription through a
    /// `ReplaySubject` of `bufferSize`: a subscriber first receives up to the
    /// last `bufferSize` elements, once `connect()` is called. After the source
    /// terminates, a new subject is used for later subscribers and connections.
    ///
    ///     source:          --1--2--3-----|
    ///     replay(1) at c:  c
    ///     subscribed at x:        x
    ///     receives:               2--3---|
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject<Element>.create(bufferSize: bufferSize) })
    }

    /// A connectable sequence that shares one subscription through an
    /// unbounded `ReplaySubject`: a subscriber first receives every element
    /// emitted so far in this connection. After the source terminates, a new
    /// subject is used for later subscribers and connections.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject<Element>.createUnbounded() })
    }
}

private final class MulticastSink<Subject: SubjectType, Observer: ObserverType>: ForwardingSink<Observer>, @unchecked Sendable {
    func run(_ parent: Multicast<Subject, Observer.Element>) -> Disposable {
        do {
            let subject = try parent.subjectSelector()
            let connectable = ConnectableObservableAdapter(source: parent.source, makeSubject: { subject })
            let observable = try parent.selector(connectable)
            let subscription = observable.subscribe(self)
            let connection = connectable.connect()
            return Disposables.create(subscription, connection)
        } catch {
            forwardError(error)
            return Disposables.create()
        }
    }
}

private final class Multicast<Subject: SubjectType, Result>: Producer<Result> {
    typealias SubjectSelector = () throws -> Subject
    typealias Selector = (Observable<Subject.Element>) throws -> Observable<Result>

    let source: Observable<Subject.Observer.Element>
    let subjectSelector: SubjectSelector
    let selector: Selector

    init(source: Observable<Subject.Observer.Element>, subjectSelector: @escaping SubjectSelector, selector: @escaping Selector) {
        self.source = source
        self.subjectSelector = subjectSelector
        self.selector = selector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Result {
        let sink = MulticastSink<Subject, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}
