/// A value to read and set, observable: RxSwift 4's `Variable`.
///
/// `value` reads the current value and, set, makes the new value current and
/// emits it to the subscribers. `asObservable()` behaves as a
/// `BehaviorSubject`: each subscriber gets the current value, then every
/// value set after it subscribed. Thread safety and serialised delivery are
/// `BehaviorSubject`'s (two threads setting at once deliver at once, as in
/// RxSwift).
///
/// How it differs from `BehaviorRelay`: a `Variable` completes its
/// subscribers when it is released, so a store that keeps a private
/// `Variable` ends its readers' chains when the store goes away. Hand out a
/// `Property` of it (`Property(variable)`) for read-only access; the
/// property does not keep the variable alive.
///
///     value 0   ----1----2----(released)
///     asObservable(): 0---1----2----|
// @unchecked Sendable: all state lives in the wrapped subject, which is
// thread-safe.
public final class Variable<Element>: @unchecked Sendable {
    private let subject: BehaviorSubject<Element>

    /// A variable whose current value is `value`.
    public init(_ value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// The current value; setting it emits the new value to the subscribers.
    public var value: Element {
        // The subject is completed only in deinit and never fails or is
        // disposed, so `value()` cannot throw here.
        get { try! subject.value() }
        set { subject.onNext(newValue) }
    }

    /// The current value, then every value set; completes when the variable
    /// is released.
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }

    /// A read-only observable over the subject, which cannot be cast back to
    /// something that sends, and does not keep the variable (used by
    /// `Property`).
    func readOnlyView() -> (value: () -> Element, observable: Observable<Element>) {
        let subject = subject
        // After completion the subject still holds the last value.
        return ({ try! subject.value() }, ReadOnlySubjectView(subject))
    }

    deinit {
        subject.onCompleted()
    }
}
