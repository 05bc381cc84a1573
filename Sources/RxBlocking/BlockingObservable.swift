import RxCore

/// An Observable with blocking operators, for tests: RxBlocking's
/// `BlockingObservable`.
///
/// Each operator subscribes, waits on the calling thread until the sequence
/// ends (or the operator has what it needs), and returns. Do not use it in
/// a program: it blocks a thread.
public struct BlockingObservable<Element> {
    /// Seconds to wait at most; `nil` waits for as long as it takes.
    let timeout: Double?
    /// The sequence waited for.
    let source: Observable<Element>
}

extension ObservableConvertibleType {
    /// The sequence with blocking operators (`toArray()`, `first()`,
    /// `last()`, `single()`, `materialize()`).
    ///
    /// - Parameter timeout: seconds (a `TimeInterval`) an operator may wait
    ///   before it throws `RxError.timeout`; `nil` waits for as long as it
    ///   takes.
    /// - Returns: the blocking view of `self`.
    public func toBlocking(timeout: Double? = nil) -> BlockingObservable<Element> {
        BlockingObservable(timeout: timeout, source: asObservable())
    }
}
