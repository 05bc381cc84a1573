import Synchronization

/// Disposes its underlying disposable on a given scheduler.
public final class ScheduledDisposable: Cancelable {
    /// The scheduler that runs the dispose.
    public let scheduler: ImmediateSchedulerType

    private let disposable: Mutex<Disposable?>
    private let disposed = Atomic<Bool>(false)

    /// Wraps `disposable`, to be disposed on `scheduler`.
    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        self.disposable = Mutex(disposable)
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// `true` once `dispose()` has been called.
    public var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    /// Schedules the dispose of the underlying disposable on `scheduler`.
    public func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = scheduler.schedule(self) { this in
            this.disposeInner()
            return Disposables.create()
        }
    }

    private func disposeInner() {
        let inner = disposable.withLock { inner -> Disposable? in
            defer { inner = nil }
            return inner
        }
        inner?.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
