@_spi(Bridge) import RxCore

/// What a `HandleSink` does on its loop's thread.
enum HandleSinkStep {
    /// Open what the subscription owns (`HandleSink.open()`), unless
    /// disposed first.
    case open
    /// Release what it owns: the subscription was disposed.
    case close
}

/// The one handle-owning subscription of the bridge.
///
/// Every bridge Observable whose subscription owns a libuv handle or request
/// (listen, signal, timer, scheduled actions, connect, read, write,
/// shutdown, and every handle type that comes later) is a `Producer` whose
/// sink is a subclass of this. The rules live here once:
/// - `start()` (from `Producer.run`) runs `open()` on the loop thread: at
///   once when subscribed there, otherwise through `Loop.execute`. `open()`
///   creates the handle or request and hands it over with `own(_:)`; an
///   error it throws ends the subscription with that error.
/// - `dispose()`, from any thread, any number of times, also from inside the
///   handle's own callback or before `open()` ran: the first call hops to
///   the loop thread (`Loop.onLoopThread`, allocation-free when already
///   there) and closes the owned handle (`uv_close`, through `UVHandle`),
///   cancels the owned request (`uv_cancel`) and calls `didRelease()`. A
///   handle owned after that is closed at once.
/// - The handle reaches the sink one way: the sink is the handle's `target`
///   (`UVTimerTarget`, `UVSignalTarget`, `UVStreamTarget`), which the handle
///   holds until its close callback.
///
/// Subclasses override `open()` and, when disposing must do more than close
/// the owned handle, `didRelease()`. Loop-thread state (the owned handle and
/// request, and what subclasses keep) is touched only on the loop thread:
/// in `open()`, in handle callbacks, and in the close step.
class HandleSink<Observer: ObserverType>: Sink<Observer>, LoopThreadWork, @unchecked Sendable {
    /// The loop the owned handles belong to.
    final let loop: Loop
    // Loop-thread state.
    /// The handle the subscription owns, if any.
    private(set) final var ownedHandle: UVHandle?
    private final var ownedRequest: UVRequest?

    // Inlined into the subclasses' inits, like the other small steps here:
    // a call per level would copy `cancel` and the observer once more.
    @inline(__always)
    init(loop: Loop, observer: Observer, cancel: Cancelable) {
        self.loop = loop
        super.init(observer: observer, cancel: cancel)
    }

    /// Runs `open()` on the loop thread unless disposed first. When the loop
    /// is closed, ends the subscription with `EINVAL` naming the operation.
    @inline(__always)
    final func start(_ operation: StaticString) {
        if !loop.onLoopThread(self, .open) {
            forwardError(UVError(code: UVError.Code.invalidArgument, operation: "\(operation) (the loop is closed)"))
        }
    }

    /// Creates what the subscription owns and hands it to `own(_:)`. Loop
    /// thread; not called once disposed. A thrown error ends the subscription.
    func open() throws(UVError) {}

    /// Called on the loop thread after a dispose has closed the owned
    /// handle and cancelled the owned request.
    func didRelease() {}

    /// Takes ownership of `handle` (a handle already owned is closed); closes
    /// it at once if the subscription is disposed. Loop thread.
    @inline(__always)
    final func own(_ handle: UVHandle) {
        if isDisposed {
            handle.close()
            return
        }
        ownedHandle?.close()
        ownedHandle = handle
    }

    /// Takes ownership of `request` until `disownRequest()`; cancels it at
    /// once if the subscription is disposed. Loop thread.
    final func own(_ request: UVRequest) {
        if isDisposed {
            request.cancel()
            return
        }
        ownedRequest = request
    }

    /// Gives up the owned handle without closing it (it was handed on, or
    /// it closed itself). Loop thread.
    final func disownHandle() {
        ownedHandle = nil
    }

    /// Forgets the owned request: it completed. Loop thread.
    final func disownRequest() {
        ownedRequest = nil
    }

    /// Closes the owned handle now (a one-shot timer that fired, a listener
    /// that failed). Loop thread.
    final func closeHandle() {
        let handle = ownedHandle
        ownedHandle = nil
        handle?.close()
    }

    // Inlined into `start` and `dispose`, where the step is a constant.
    @inline(__always)
    final func runOnLoopThread(_ step: HandleSinkStep) {
        switch step {
        case .open:
            guard !isDisposed else { return }
            do throws(UVError) {
                try open()
            } catch {
                forwardError(error)
            }
        case .close:
            closeHandle()
            let request = ownedRequest
            ownedRequest = nil
            request?.cancel()
            didRelease()
        }
    }

    override final func dispose() {
        // `super.dispose()` disposes the whole subscription, which comes
        // back here once more; only the first call closes.
        let isFirst = !isDisposed
        super.dispose()
        if isFirst {
            loop.onLoopThread(self, .close)
        }
    }
}
