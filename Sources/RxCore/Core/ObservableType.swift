/// A push-based sequence: subscribing an observer starts delivering events to it.
///
/// Every operator of RxCore is an extension of this protocol and returns an
/// `Observable`. The returned `Disposable` ends the subscription: after
/// `dispose()` the observer receives nothing more.
public protocol ObservableType<Element>: ObservableConvertibleType {
    /// Subscribes `observer` to the events of this sequence.
    ///
    /// - Returns: a disposable that ends the subscription and releases its resources.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element
}

extension ObservableType {
    /// The sequence as an `Observable`. For types that are not already an
    /// `Observable`, subscribing the result subscribes `self`.
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }
}
