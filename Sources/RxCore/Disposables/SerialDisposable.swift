import Synchronization

/// Holds one disposable at a time: setting a new one disposes the previous one.
///
/// Once the serial disposable is disposed, a newly set disposable is disposed at once.
public final class SerialDisposable: Cancelable {
    private struct State {
        var current: Disposable?
        var isDisposed = false
    }

    private let state = Mutex(State())

    /// Creates an empty serial disposable.
    public init() {
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// The current disposable. Setting it disposes the previous one (or the new
    /// one, if `self` is already disposed).
    public var disposable: Disposable {
        get {
            state.withLock { $0.current } ?? Disposables.create()
        }
        set {
            let toDispose = state.withLock { state -> Disposable? in
                if state.isDisposed { return newValue }
                defer { state.current = newValue }
                return state.current
            }
            toDispose?.dispose()
        }
    }

    /// Disposes the current disposable and every later one.
    public func dispose() {
        let current = state.withLock { state -> Disposable? in
            if state.isDisposed { return nil }
            state.isDisposed = true
            defer { state.current = nil }
            return state.current
        }
        current?.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
