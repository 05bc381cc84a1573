/// A sequence of events over time: the central type of Rx.
///
/// Instances come from creation functions (`Observable.just`, `.create`,
/// `.interval`...) and operators; subjects are observables too. Its
/// initialiser is internal, so only RxCore defines direct subclasses; an
/// event-loop binding such as RxUV subclasses the `Producer` of the `Bridge`
/// SPI (`@_spi(Bridge) import RxCore`), which needs the class to be `open`.
open class Observable<Element>: ObservableType {
    @usableFromInline
    init() {
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// Subscribes `observer`; every subclass in RxCore implements this.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        preconditionFailure("\(type(of: self)) does not implement subscribe(_:)")
    }

    /// Returns `self`.
    public func asObservable() -> Observable<Element> {
        self
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

/// `Observable` under a name that does not clash with the `Observable`
/// protocol of Apple's Observation module.
public typealias RxObservable = Observable
