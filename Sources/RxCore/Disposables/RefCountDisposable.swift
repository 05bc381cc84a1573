import Synchronization

/// Disposes its underlying disposable only when it has been disposed itself and
/// every dependent disposable handed out by `retain()` has been disposed too.
public final class RefCountDisposable: Cancelable {
    private struct State {
        var disposable: Disposable?
        var primaryDisposed = false
        var count = 0
    }

    private let state: Mutex<State>

    /// Wraps `disposable`.
    public init(disposable: Disposable) {
        state = Mutex(State(disposable: disposable))
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// `true` once the underlying disposable has been disposed.
    public var isDisposed: Bool {
        state.withLock { $0.disposable == nil }
    }

    /// Returns a dependent disposable; the underlying one lives until it is disposed.
    public func retain() -> Disposable {
        let alive = state.withLock { state -> Bool in
            guard state.disposable != nil else { return false }
            state.count += 1
            return true
        }
        guard alive else { return Disposables.create() }
        return Disposables.create { [self] in self.release() }
    }

    /// Marks the primary as disposed; disposes the underlying disposable if no
    /// dependent is alive.
    public func dispose() {
        let toDispose = state.withLock { state -> Disposable? in
            guard let disposable = state.disposable, !state.primaryDisposed else { return nil }
            state.primaryDisposed = true
            guard state.count == 0 else { return nil }
            state.disposable = nil
            return disposable
        }
        toDispose?.dispose()
    }

    private func release() {
        let toDispose = state.withLock { state -> Disposable? in
            guard let disposable = state.disposable else { return nil }
            precondition(state.count > 0, "RefCountDisposable released more often than retained")
            state.count -= 1
            guard state.count == 0, state.primaryDisposed else { return nil }
            state.disposable = nil
            return disposable
        }
        toDispose?.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
