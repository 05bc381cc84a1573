import Synchronization

/// A disposable that only records whether it was disposed.
public final class BooleanDisposable: Cancelable {
    /// A disposable that is already disposed.
    public static let BooleanDisposableTrue = BooleanDisposable(isDisposed: true)

    private let disposed: Atomic<Bool>

    /// Creates a disposable that is not yet disposed.
    public init() {
        disposed = Atomic(false)
    }

    /// Creates a disposable in the given state.
    public init(isDisposed: Bool) {
        disposed = Atomic(isDisposed)
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    /// Marks the disposable as disposed.
    public func dispose() {
        disposed.store(true, ordering: .releasing)
    }
}
