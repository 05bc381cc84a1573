import Synchronization

/// Runs a closure on the first `dispose()`; later calls do nothing.
final class AnonymousDisposable: Cancelable {
    private let action: Mutex<(() -> Void)?>
    private let disposed = Atomic<Bool>(false)

    init(_ action: @escaping () -> Void) {
        self.action = Mutex(action)
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let action = self.action.withLock { action -> (() -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
