/// A resource that can be released: a subscription, a scheduled action, a handle.
///
/// `dispose()` is idempotent and thread-safe in every RxCore implementation.
/// A disposable is `Sendable`: the subscription that `subscribe` returns may
/// be handed to another task or thread and disposed there.
public protocol Disposable: Sendable {
    /// Releases the resource. Calling it again does nothing.
    func dispose()
}

/// A disposable that can tell whether it has been disposed.
public protocol Cancelable: Disposable {
    /// `true` once `dispose()` has been called.
    var isDisposed: Bool { get }
}
