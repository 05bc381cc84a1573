import Synchronization

/// A disposable whose underlying disposable can be set once.
///
/// Disposing before the assignment disposes the assigned disposable as soon as
/// it arrives. Assigning twice is a programmer error and traps.
// @unchecked Sendable: `flags` (atomic) decides which one caller moves
// `disposable` out, after the one assignment has published it.
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
    private let flags = HandOverFlags()
    // Unchecked exclusivity, as in `SinkDisposer`: written once before
    // `flags.publish`, moved out once by the caller `flags` picks. Not an
    // optional and not an enum payload: a no-op stands for "none", so
    // storing and moving it out are plain existential operations.
    @exclusivity(unchecked) private var disposable: Disposable = NopDisposable()

    /// Creates an unassigned disposable.
    public init() {
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        flags.isDisposed
    }

    /// Sets the underlying disposable; disposes it at once if `self` is already disposed.
    public func setDisposable(_ disposable: consuming Disposable) {
        self.disposable = disposable
        if flags.publish(twice: "SingleAssignmentDisposable: disposable already set") {
            disposeHeld()
        }
    }

    /// Disposes the underlying disposable, now or when it is assigned.
    public func dispose() {
        if flags.dispose() {
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
