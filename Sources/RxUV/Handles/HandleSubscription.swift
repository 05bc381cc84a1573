import RxCore
import Synchronization

/// The subscription that owns one handle for an Observable.
///
/// `start` creates the handle on the loop thread (at once when subscribed
/// there, otherwise through `execute`); `dispose()` closes it, from any
/// thread, any number of times, including before the handle exists (it is
/// then never created) and from inside the handle's own callback.
final class HandleSubscription<Handle: UVHandle>: Cancelable {
    private struct State {
        var isDisposed = false
        var handle: Handle?
    }

    private let loop: Loop
    private let state = Mutex(State())

    init(loop: Loop) {
        self.loop = loop
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// Creates the handle with `make` on the loop thread unless disposed
    /// first; a thrown error goes to `onError`.
    func start(_ make: @escaping () throws(UVError) -> Handle, onError: @escaping (UVError) -> Void) {
        loop.onLoopThread { [self] in
            guard !isDisposed else { return }
            do throws(UVError) {
                let handle = try make()
                let closeNow = state.withLock { state -> Bool in
                    if state.isDisposed { return true }
                    state.handle = handle
                    return false
                }
                if closeNow {
                    handle.close()
                }
            } catch {
                onError(error)
            }
        }
    }

    func dispose() {
        let handle = state.withLock { state -> Handle? in
            if state.isDisposed { return nil }
            state.isDisposed = true
            defer { state.handle = nil }
            return state.handle
        }
        handle?.closeFromAnyThread()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
