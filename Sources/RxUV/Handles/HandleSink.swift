@_spi(Bridge) import RxCore

/// The one handle-owning subscription of the bridge.
///
/// Every bridge subscription that owns a libuv handle, request or timer, or
/// works on a stream or socket on the loop thread (listen and accept,
/// signal, timer, scheduled actions, connect, read, write, file send,
/// shutdown, spawn, file watch and poll, UDP open and receive, requests
/// such as address lookups) has a sink that is a subclass of this: a
/// `Producer`'s sink, or, for the Loop scheduler, `ScheduledAction`. The
/// rules live here once:
/// - `start()` (from `Producer.run`) runs `open()` on the loop thread
///   through `Loop.enter`: at once when subscribed there, otherwise queued.
///   `open()` creates what the subscription owns and hands it over with
///   `own(_:)`; an error it throws ends the subscription with that error.
/// - `dispose()`, from any thread, any number of times, also from inside the
///   handle's own callback or before `open()` ran: the first call goes to
///   the loop thread (`Loop.enter`) and releases what it owns (a handle is
///   closed with `uv_close`, through `UVHandle`; a request is cancelled
///   with `uv_cancel`; a timer leaves the loop's `LoopTimerQueue`), then
///   calls `didRelease()`. What it is given after that is released at once.
/// - What it owns, it holds in an `Owned`, the bridge's one way to own.
/// - Events reach the sink one way: the sink is the `target` of what
///   delivers them, which holds it until it is released. That is the
///   handle it owns (`UVSignalTarget`, `UVFileSystemEventTarget`,
///   `UVFileSystemPollTarget`), its `LoopTimer` (`UVTimerTarget`), its
///   `Acceptor` (`AcceptorTarget`), or, where several subscriptions share
///   one handle, the owner of that handle: a stream's reader
///   (`ByteStreamReader`, handed each read by the `StreamConnection`, itself
///   the `uv_stream_t`'s `UVStreamTarget`) and a UDP socket's receiver
///   (`UDPReceiver`).
///
/// A `Producer.run` makes its sink with the `SinkDisposer` it is given,
/// calls `start`, and returns the sink as the sink of the subscription
/// (`(sink: sink, subscription: Disposables.create())`): what the
/// subscription owns is released through the sink's `dispose()`.
///
/// Subclasses override `open()` and, when disposing must do more than close
/// the owned handle, `didRelease()`. Loop-thread state (what is owned, and
/// what subclasses keep) is touched only on the loop thread:
/// in `open()`, in handle callbacks, and in the close step.
class HandleSink<Observer: ObserverType>: Sink<Observer>, LoopConfined, @unchecked Sendable {
    /// The loop the owned handles belong to.
    final let loop: Loop
    /// What the subscription owns: a handle or a cancellable request.
    /// Loop-thread state, touched only by `own`, `disown` and
    /// `releaseOwned`, which check the thread in debug builds (`assertConfined`).
    // Not a `LoopBound`: that would be one more object for every
    // subscription (every write, every read, every timer). Unchecked
    // exclusivity, as inside `LoopBound`: every access is on the loop
    // thread (asserted above) and none overlaps another (each one is a
    // `take()` or an assignment, ended before what it took is released).
    // Swift's own checks here cost 430 instructions a timer (thresholds:
    // timers.rx 6,650 -> 7,080).
    @exclusivity(unchecked) private final var owned: Owned<UVResource>?

    // Inlined into the subclasses' inits, like the other small steps here:
    // a call per level would copy `cancel` and the observer once more.
    @inline(__always)
    init(loop: Loop, observer: Observer, cancel: SinkDisposer?) {
        self.loop = loop
        super.init(observer: observer, cancel: cancel)
    }

    /// Runs `open()` on the loop thread unless disposed first. When the loop
    /// is closed, ends the subscription with `EINVAL` naming the operation.
    @inline(__always)
    final func start(_ operation: StaticString) {
        if !loop.enter(self, .open) {
            loopClosed(operation)
        }
    }

    /// Ends the subscription with `EINVAL` naming `operation`: the loop
    /// refused the work because it is closed.
    final func loopClosed(_ operation: StaticString) {
        forwardError(UVError(code: UVError.Code.invalidArgument, operation: "\(operation) (the loop is closed)"))
    }

    /// Ends the subscription: with `error`, or completed when it is `nil`.
    final func end(_ error: UVError?) {
        if let error {
            forwardError(error)
        } else {
            forwardCompleted()
        }
    }

    /// `true` for a subscription whose work is a side effect that libuv
    /// cannot take back once asked for (a write, a shutdown, a socket
    /// option): `open()` runs even when the subscription was disposed
    /// before it reached the loop thread, so a write disposed early still
    /// takes its place among the others; disposing only stops the
    /// notification. `false` (the default) for everything that owns a
    /// handle or a request.
    class var opensWhenDisposed: Bool {
        false
    }

    /// Creates what the subscription owns and hands it to `own(_:)`. Loop
    /// thread; not called once disposed (unless `opensWhenDisposed`). A
    /// thrown error ends the subscription.
    func open() throws(UVError) {}

    /// Called on the loop thread after a dispose has released what the
    /// subscription owned.
    func didRelease() {}

    /// Takes ownership of `resource`, a handle or a request libuv can cancel
    /// (`uv_cancel`: address lookups, thread-pool work), releasing what was
    /// owned before; if the subscription is disposed, releases `resource`
    /// at once (closes the handle, cancels the request). Loop thread.
    @inline(__always)
    final func own(_ resource: UVResource) {
        assertConfined()
        if isDisposed {
            Owned(resource).release()
            return
        }
        // The old one first, out of the slot: its release may call back
        // (an acceptor's end disowns), and must not find the new one.
        owned.take()?.release()
        owned = Owned(resource)
    }

    /// Owns `resource`, a handle just made, once `start` (the calls that
    /// follow its init: start, bind, connect...) has run on it; if `start`
    /// throws, the handle is closed (an initialised handle must be, even if
    /// it never started) and the error rethrown. Set the handle's target in
    /// `start`. Loop thread.
    final func own<Resource: UVResource>(_ resource: Resource, startingWith start: (Resource) throws(UVError) -> Void) throws(UVError) {
        // Dropped by a throw: the handle closes.
        let starting = Owned(resource)
        try start(resource)
        own(starting.handOver())
    }

    /// Gives up what is owned without releasing it: a request that
    /// completed, a handle handed on. Loop thread.
    final func disown() {
        assertConfined()
        _ = owned.take()?.handOver()
    }

    /// Releases what is owned now (a one-shot timer that fired, a listener
    /// that failed, a connection attempt that failed). Loop thread.
    final func releaseOwned() {
        assertConfined()
        owned.take()?.release()
    }

    // Inlined into `start` and `dispose`, where the step is a constant.
    @inline(__always)
    final func runOnLoopThread(_ step: SubscriptionStep) {
        switch step {
        case .open:
            guard !isDisposed || Self.opensWhenDisposed else { return }
            do throws(UVError) {
                try open()
            } catch {
                forwardError(error)
            }
        case .close:
            releaseOwned()
            didRelease()
        }
    }

    override final func dispose() {
        // `super.dispose()` disposes the whole subscription, which comes
        // back here once more; only the first call closes.
        let isFirst = !isDisposed
        super.dispose()
        if isFirst {
            loop.enter(self, .close)
        }
    }
}
