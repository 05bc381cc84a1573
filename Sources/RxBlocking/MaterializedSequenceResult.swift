/// How a sequence ended, with the elements it emitted: what
/// ``BlockingObservable/materialize()`` returns.
public enum MaterializedSequenceResult<T> {
    /// The sequence completed after `elements`.
    case completed(elements: [T])
    /// The sequence failed with `error` after `elements` (a timeout is
    /// `RxError.timeout`).
    case failed(elements: [T], error: Error)
}
