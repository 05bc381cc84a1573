extension ObservableType {
    /// An observable that completes at once, without elements.
    ///
    ///     empty: |
    public static func empty() -> Observable<Element> {
        EmptyProducer()
    }
}

private final class EmptyProducer<Element>: Producer<Element> {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        observer.on(.completed)
        return Disposables.create()
    }
}
