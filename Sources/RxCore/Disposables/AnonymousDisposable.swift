import Synchronization

/// Runs a closure on the first `dispose()`; later calls do nothing.
///
/// The action is a plain closure, as in RxSwift (`Disposables.create { … }`
/// captures whatever the subscription needs to tear down); it runs once, on
/// the thread that disposes first, so it is handed over unchecked.
///
/// `@usableFromInline`: the inlinable `subscribe(onNext:...)` makes the one
/// its `onDisposed` runs in.
@usableFromInline
final class AnonymousDisposable: Cancelable {
    private let action: Mutex<UncheckedSendable<(() -> Void)?>>
    private let disposed = Atomic<Bool>(false)

    @usableFromInline
    init(_ action: @escaping () -> Void) {
        self.action = Mutex(UncheckedSendable(action))
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    @usableFromInline
    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    @usableFromInline
    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let action = self.action.withLock { action -> UncheckedSendable<(() -> Void)?> in
            defer { action = UncheckedSendable(nil) }
            return action
        }
        action.value?()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
