@_spi(Bridge) import RxCore

extension Reactive where Base == Loop {
    /// Emits `signum` at each delivery of that signal to the process.
    ///
    /// Each subscription owns one `uv_signal_t`, so several subscribers may
    /// watch the same signal. Events arrive on the loop thread; the sequence
    /// never completes by itself. Disposing stops watching and closes the
    /// handle, from any thread. An invalid signal number emits
    /// `.error(UVError)` (`EINVAL`). The corresponding libuv function is
    /// `uv_signal_start`.
    ///
    /// SIGCHLD: libuv watches it itself once a child is spawned, to reap
    /// children (`loop.rx.spawn`). Subscribing to SIGCHLD here works beside
    /// that; reaping children yourself (`waitpid(-1, …)`), setting SIGCHLD
    /// to `SIG_IGN` or installing a handler with `sigaction` does not: the
    /// exit statuses would be lost and `ChildProcess.exit` would never fire.
    public func signal(_ signum: Int32) -> Observable<Int32> {
        LoopSignal(loop: base, signum: signum)
    }
}

/// The observable of `loop.rx.signal`: one `uv_signal_t` per subscription.
private final class LoopSignal: Producer<Int32> {
    private let loop: Loop
    private let signum: Int32

    init(loop: Loop, signum: Int32) {
        self.loop = loop
        self.signum = signum
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Int32 {
        let sink = LoopSignalSink(loop: loop, signum: signum, observer: observer, cancel: cancel)
        sink.start("uv_signal_start")
        return (sink: sink, subscription: Disposables.create())
    }
}

/// Owns the signal handle of one `loop.rx.signal` subscription.
private final class LoopSignalSink<Observer: ObserverType>: HandleSink<Observer>, UVSignalTarget, @unchecked Sendable where Observer.Element == Int32 {
    private let signum: Int32

    init(loop: Loop, signum: Int32, observer: Observer, cancel: SinkDisposer) {
        self.signum = signum
        super.init(loop: loop, observer: observer, cancel: cancel)
    }

    override func open() throws(UVError) {
        try own(try UVSignal(loop: loop)) { [signum] (signal) throws(UVError) in
            try signal.start(signum)
            signal.target = self
        }
    }

    func signalDelivered(_ signum: Int32) {
        forwardNext(signum)
    }
}
