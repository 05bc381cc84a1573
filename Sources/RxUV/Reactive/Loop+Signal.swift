import RxCore

extension Reactive where Base == Loop {
    /// Emits `signum` at each delivery of that signal to the process.
    ///
    /// Each subscription owns one `uv_signal_t`, so several subscribers may
    /// watch the same signal. Events arrive on the loop thread; the sequence
    /// never completes by itself. Disposing stops watching and closes the
    /// handle, from any thread. An invalid signal number emits
    /// `.error(UVError)` (`EINVAL`). The corresponding libuv function is
    /// `uv_signal_start`.
    public func signal(_ signum: Int32) -> Observable<Int32> {
        let loop = base
        return Observable.create { observer in
            let subscription = HandleSubscription<UVSignal>(loop: loop)
            subscription.start { () throws(UVError) -> UVSignal in
                let signal = try UVSignal(loop: loop)
                signal.onSignal = { signum in observer.onNext(signum) }
                try signal.closingIfFails { () throws(UVError) in try signal.start(signum) }
                return signal
            } onError: { error in
                observer.onError(error)
            }
            return subscription
        }
    }
}
