import Synchronization

/// A group of disposables disposed together.
///
/// Disposables added after the group was disposed are disposed at once. Each
/// insertion returns a key that removes (and disposes) just that disposable.
public final class CompositeDisposable: Cancelable {
    /// The key of one disposable in the group.
    public struct DisposeKey: Sendable {
        let key: BagKey
    }

    /// What the group holds; `nil` once disposed.
    private let state: Mutex<Bag<Disposable>?>

    /// Creates an empty group.
    public init() {
        state = Mutex(Bag())
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// Creates a group of two.
    public convenience init(_ disposable1: Disposable, _ disposable2: Disposable) {
        self.init(disposables: [disposable1, disposable2])
    }

    /// Creates a group of three.
    public convenience init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
        self.init(disposables: [disposable1, disposable2, disposable3])
    }

    /// Creates a group of four or more.
    public convenience init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposable4: Disposable, _ disposables: Disposable...) {
        self.init(disposables: [disposable1, disposable2, disposable3, disposable4] + disposables)
    }

    /// Creates a group of `disposables`.
    public init(disposables: [Disposable]) {
        var contents = Bag<Disposable>()
        for disposable in disposables {
            _ = contents.insert(disposable)
        }
        state = Mutex(contents)
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// Adds `disposable` to the group.
    ///
    /// - Returns: the key that removes it, or `nil` when the group was already
    ///   disposed, in which case `disposable` has been disposed.
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        guard let key = state.withLock({ $0?.insert(disposable) }) else {
            disposable.dispose()
            return nil
        }
        return DisposeKey(key: key)
    }

    /// The number of disposables in the group.
    public var count: Int {
        state.withLock { $0?.count ?? 0 }
    }

    /// Removes the disposable under `disposeKey` from the group and disposes it.
    public func remove(for disposeKey: DisposeKey) {
        let removed = state.withLock { contents in contents?.removeKey(disposeKey.key) }
        removed?.dispose()
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        state.withLock { $0 == nil }
    }

    /// Disposes every disposable in the group, in insertion order.
    public func dispose() {
        let contents = state.withLock { contents -> Bag<Disposable>? in
            defer { contents = nil }
            return contents
        }
        contents?.forEach { $0.dispose() }
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
