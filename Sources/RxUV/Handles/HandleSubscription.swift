import RxCore
import Synchronization

/// The subscription that owns one handle for an Observable.
///
/// `start` creates the handle on the loop thread (at once when subscribed
/// there, otherwise through `execute`); `dispose()` closes it, from any
/// thread, any number of times, including before the handle exists (it is
/// then closed as soon as it is adopted) and from inside the handle's own
/// callback. Work that precedes the handle (an address lookup) registers an
/// `onDispose` action to cancel it.
final class HandleSubscription<Handle: UVHandle>: Cancelable {
    private struct State {
        var isDisposed = false
        var handle: Handle?
        var onDispose: (() -> Void)?
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

    /// Runs on the loop thread when disposed, unless disposed already (then
    /// it runs at once). Set it on the loop thread.
    var onDispose: (() -> Void)? {
        get { state.withLock { $0.onDispose } }
        set {
            let runNow = state.withLock { state -> Bool in
                if state.isDisposed { return true }
                state.onDispose = newValue
                return false
            }
            if runNow { newValue?() }
        }
    }

    /// Calls `make` on the loop thread unless disposed first; the handle it
    /// returns (if any) is adopted, a thrown error goes to `onError`.
    func start(_ make: @escaping () throws(UVError) -> Handle?, onError: @escaping (UVError) -> Void) {
        loop.onLoopThread { [self] in
            guard !isDisposed else { return }
            do throws(UVError) {
                if let handle = try make() {
                    adopt(handle)
                }
            } catch {
                onError(error)
            }
        }
    }

    /// Takes ownership of `handle`; closes it at once if already disposed. Loop thread.
    func adopt(_ handle: Handle) {
        let closeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.handle = handle
            return false
        }
        if closeNow {
            handle.close()
        }
    }

    func dispose() {
        let (handle, onDispose) = state.withLock { state -> (Handle?, (() -> Void)?) in
            if state.isDisposed { return (nil, nil) }
            state.isDisposed = true
            defer {
                state.handle = nil
                state.onDispose = nil
            }
            return (state.handle, state.onDispose)
        }
        guard handle != nil || onDispose != nil else { return }
        loop.onLoopThread {
            handle?.close()
            onDispose?()
        }
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
