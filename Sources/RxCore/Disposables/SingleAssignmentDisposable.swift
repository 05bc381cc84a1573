import Synchronization

/// A disposable whose underlying disposable can be set once.
///
/// Disposing before the assignment disposes the assigned disposable as soon as
/// it arrives. Assigning twice is a programmer error and traps.
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
    private static let disposedFlag = 1
    private static let assignedFlag = 2

    private let state = Atomic<Int>(0)
    // Unchecked exclusivity, as in `SinkDisposer`: `disposable` is written
    // once, by `setDisposable`, before it publishes `assignedFlag` (a
    // releasing read-modify-write), and moved out once, by the caller that
    // observes both flags set (after an acquiring one). Not an optional and
    // not an enum payload: a no-op stands for "none", so storing and moving
    // it out are plain existential operations.
    @exclusivity(unchecked) private var disposable: Disposable = NopDisposable()

    /// Creates an unassigned disposable.
    public init() {
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        state.load(ordering: .acquiring) & Self.disposedFlag != 0
    }

    /// Sets the underlying disposable; disposes it at once if `self` is already disposed.
    public func setDisposable(_ disposable: consuming Disposable) {
        self.disposable = disposable
        let previous = state.bitwiseOr(Self.assignedFlag, ordering: .acquiringAndReleasing).oldValue
        precondition(previous & Self.assignedFlag == 0, "SingleAssignmentDisposable: disposable already set")
        if previous & Self.disposedFlag != 0 {
            disposeHeld()
        }
    }

    /// Disposes the underlying disposable, now or when it is assigned.
    public func dispose() {
        let previous = state.bitwiseOr(Self.disposedFlag, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposedFlag != 0 { return }
        if previous & Self.assignedFlag != 0 {
            disposeHeld()
        }
    }

    private func disposeHeld() {
        var held: Disposable = NopDisposable()
        swap(&held, &disposable)
        held.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
