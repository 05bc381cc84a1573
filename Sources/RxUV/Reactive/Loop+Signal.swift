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
