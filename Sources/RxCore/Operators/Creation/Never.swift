extension ObservableType {
    /// An observable that never emits and never terminates; disposing does nothing.
    ///
    ///     never: ----
    public static func never() -> Observable<Element> {
        NeverProducer()
    }
}

private final class NeverProducer<Element>: Producer<Element> {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        Disposables.create()
    }
}
