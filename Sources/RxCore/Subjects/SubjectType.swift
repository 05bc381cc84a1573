/// An object that is both an observable sequence and an observer.
public protocol SubjectType<Element>: ObservableType {
    /// The observer face of the subject.
    associatedtype Observer: ObserverType

    /// The subject as an observer: events sent to it are emitted to its subscribers.
    func asObserver() -> Observer
}
