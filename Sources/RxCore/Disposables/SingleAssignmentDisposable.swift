import Synchronization

/// A disposable whose underlying disposable can be set once.
///
/// Disposing before the assignment disposes the assigned disposable as soon as
/// it arrives. Assigning twice is a programmer error and traps.
public final class SingleAssignmentDisposable: Cancelable {
    private enum State {
        case empty
        case assigned(Disposable)
        case disposed
        case assignedThenDisposed
    }

    private let state = Mutex(State.empty)

    /// Creates an unassigned disposable.
    public init() {
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        state.withLock { state in
            switch state {
            case .disposed, .assignedThenDisposed: return true
            case .empty, .assigned: return false
            }
        }
    }

    /// Sets the underlying disposable; disposes it at once if `self` is already disposed.
    public func setDisposable(_ disposable: Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            switch state {
            case .empty:
                state = .assigned(disposable)
                return false
            case .disposed:
                state = .assignedThenDisposed
                return true
            case .assigned, .assignedThenDisposed:
                preconditionFailure("SingleAssignmentDisposable: disposable already set")
            }
        }
        if disposeNow {
            disposable.dispose()
        }
    }

    /// Disposes the underlying disposable, now or when it is assigned.
    public func dispose() {
        let toDispose = state.withLock { state -> Disposable? in
            switch state {
            case .empty:
                state = .disposed
                return nil
            case .assigned(let disposable):
                state = .assignedThenDisposed
                return disposable
            case .disposed, .assignedThenDisposed:
                return nil
            }
        }
        toDispose?.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
