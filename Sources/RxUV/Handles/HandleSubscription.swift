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
///
/// Only the dispose flag is shared between threads; the handle and the
/// dispose action are loop-thread state (`LoopBound`), and `dispose()` hops
/// to the loop thread to close and cancel them.
final class HandleSubscription<Handle: UVHandle>: Cancelable, LoopThreadWork {
    /// What the subscription owns, on the loop thread.
    private struct Owned {
        var handle: Handle?
        var onDispose: (() -> Void)?
    }

    private let loop: Loop
    private let disposed = Atomic<Bool>(false)
    private let owned: LoopBound<Owned>

    init(loop: Loop) {
        self.loop = loop
        self.owned = LoopBound(Owned(), loop: loop)
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    /// Runs on the loop thread when disposed, unless disposed already (then
    /// it runs at once). Loop thread only.
    var onDispose: (() -> Void)? {
        get { owned.value.onDispose }
        set {
            if isDisposed {
                newValue?()
            } else {
                owned.value.onDispose = newValue
            }
        }
    }

    /// Calls `make` on the loop thread unless disposed first; the handle it
    /// returns (if any) is adopted, a thrown error goes to `onError`.
    func start(_ make: @escaping () throws(UVError) -> Handle?, onError: @escaping (UVError) -> Void) {
        // Both closures run once, on the loop thread, where the handle they
        // make lives.
        let make = UncheckedSendable(make)
        let onError = UncheckedSendable(onError)
        loop.onLoopThread { [self] in
            guard !isDisposed else { return }
            do throws(UVError) {
                if let handle = try make.value() {
                    adopt(handle)
                }
            } catch {
                onError.value(error)
            }
        }
    }

    /// Takes ownership of `handle`; closes it at once if already disposed.
    /// Loop thread. (A dispose that has not reached the loop thread yet
    /// finds the handle there and closes it.)
    func adopt(_ handle: Handle) {
        if isDisposed {
            handle.close()
        } else {
            owned.value.handle = handle
        }
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        loop.onLoopThread(self)
    }

    /// After `dispose()`: closes the handle and runs the dispose action.
    func runOnLoopThread(_: Void) {
        let handle = owned.value.handle
        let onDispose = owned.value.onDispose
        owned.value = Owned()
        handle?.close()
        onDispose?()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
