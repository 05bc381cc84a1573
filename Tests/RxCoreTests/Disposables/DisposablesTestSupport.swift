import Dispatch
import RxCore

/// A disposable that counts how often its action ran, for the disposables' tests.
func countingDisposable(_ counter: ManagedCounter) -> Cancelable {
    Disposables.create { counter.increment() }
}

/// Calls `dispose()` on `disposable` from 100 threads at once.
func disposeConcurrently(_ disposable: Disposable) {
    DispatchQueue.concurrentPerform(iterations: 100) { _ in
        disposable.dispose()
    }
}
