/// A type that can be turned into an `Observable`.
public protocol ObservableConvertibleType<Element>: SendableMetatype {
    /// The element type of the sequence.
    associatedtype Element

    /// The observable sequence that represents `self`.
    func asObservable() -> Observable<Element>
}
