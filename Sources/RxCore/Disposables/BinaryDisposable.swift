import Synchronization

/// Disposes two disposables, once.
final class BinaryDisposable: Cancelable {
    private let disposables: Mutex<(Disposable, Disposable)?>
    private let disposed = Atomic<Bool>(false)

    init(_ disposable1: Disposable, _ disposable2: Disposable) {
        self.disposables = Mutex((disposable1, disposable2))
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let pair = disposables.withLock { pair -> (Disposable, Disposable)? in
            defer { pair = nil }
            return pair
        }
        pair?.0.dispose()
        pair?.1.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
