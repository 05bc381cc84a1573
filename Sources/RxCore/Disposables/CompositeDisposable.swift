import Synchronization

/// A group of disposables disposed together.
///
/// Disposables added after the group was disposed are disposed at once. Each
/// insertion returns a key that removes (and disposes) just that disposable.
public final class CompositeDisposable: Cancelable {
    /// The key of one disposable in the group.
    public struct DisposeKey: Sendable {
        let key: BagKey
        /// Which of the two bags holds it.
        let isAssignment: Bool
    }

    /// What the group holds: any disposables, and apart from them the
    /// `SingleAssignmentDisposable`s the operators add per inner
    /// subscription, kept as the class they are, so adding and removing one
    /// copies a reference instead of an existential. `nil` once disposed.
    private struct Contents {
        var disposables = Bag<Disposable>()
        var assignments = Bag<SingleAssignmentDisposable>()

        var count: Int { disposables.count + assignments.count }
    }

    private let state: Mutex<Contents?>

    /// Creates an empty group.
    public init() {
        state = Mutex(Contents())
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
        var contents = Contents()
        for disposable in disposables {
            _ = contents.disposables.insert(disposable)
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
        disposeKey(state.withLock { $0?.disposables.insert(disposable) }, isAssignment: false, orDispose: disposable)
    }

    /// `insert(_:)` for the disposable of one inner subscription, kept in its
    /// own bag (see `Contents`).
    func insert(_ assignment: SingleAssignmentDisposable) -> DisposeKey? {
        disposeKey(state.withLock { $0?.assignments.insert(assignment) }, isAssignment: true, orDispose: assignment)
    }

    /// The key of an insertion, or, when the group was disposed already
    /// (`key` is `nil`), disposes `inserted` and returns `nil`.
    @inline(__always)
    private func disposeKey<Inserted: Disposable>(_ key: BagKey?, isAssignment: Bool, orDispose inserted: Inserted) -> DisposeKey? {
        guard let key else {
            inserted.dispose()
            return nil
        }
        return DisposeKey(key: key, isAssignment: isAssignment)
    }

    /// The number of disposables in the group.
    public var count: Int {
        state.withLock { $0?.count ?? 0 }
    }

    /// Removes the disposable under `disposeKey` from the group and disposes it.
    public func remove(for disposeKey: DisposeKey) {
        if disposeKey.isAssignment {
            let removed = state.withLock { contents in contents?.assignments.removeKey(disposeKey.key) }
            removed?.dispose()
        } else {
            let removed = state.withLock { contents in contents?.disposables.removeKey(disposeKey.key) }
            removed?.dispose()
        }
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        state.withLock { $0 == nil }
    }

    /// Disposes every disposable in the group, in insertion order (the
    /// per-inner disposables operators add, kept apart, come after the
    /// others, in their own insertion order).
    public func dispose() {
        let contents = state.withLock { contents -> Contents? in
            defer { contents = nil }
            return contents
        }
        contents?.disposables.forEach { $0.dispose() }
        contents?.assignments.forEach { $0.dispose() }
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
