extension ObservableType where Element == Never {
    /// The sequence as a `Completable`: completion and errors pass through.
    ///
    /// As in RxSwift, only a sequence without elements converts; write
    /// `ignoreElements().asCompletable()` to drop the elements of another.
    public func asCompletable() -> Completable {
        Completable(raw: asObservable())
    }
}

extension ObservableType {
    /// The sequence as a `Completable` whose elements are dropped: what
    /// `Single` and `Maybe` use for `asCompletable()`.
    func droppingElements() -> Completable {
        Completable(raw: DropElements(source: asObservable()))
    }
}

private final class DropElementsSink<Source, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Never {
    func on(_ event: Event<Source>) {
        switch event {
        case .next:
            return
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}

private final class DropElements<Source>: Producer<Never> {
    private let source: Observable<Source>

    init(source: Observable<Source>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Never {
        let sink = DropElementsSink<Source, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
