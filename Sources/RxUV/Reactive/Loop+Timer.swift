import RxCore

extension Reactive where Base == Loop {
    /// Emits 0 after `dueTime`, then (with `period`) 1, 2, ... every period;
    /// without a period it completes right after the 0.
    ///
    /// Each subscription owns one `uv_timer_t`; events arrive on the loop
    /// thread. Disposing stops and closes the timer (`uv_close`), from any
    /// thread, also from inside its own `onNext`. A timer that cannot be
    /// started emits `.error(UVError)`. The corresponding libuv function is
    /// `uv_timer_start`.
    public func timer(after dueTime: RxTimeInterval, repeating period: RxTimeInterval? = nil) -> Observable<Int> {
        let loop = base
        return Observable.create { observer in
            let subscription = HandleSubscription<UVTimer>(loop: loop)
            subscription.start { () throws(UVError) -> UVTimer in
                let timer = try UVTimer(loop: loop)
                var tick = 0
                timer.onFire = { [unowned timer] in
                    let value = tick
                    tick += 1
                    observer.onNext(value)
                    if period == nil {
                        timer.close()
                        observer.onCompleted()
                    }
                }
                do throws(UVError) {
                    try timer.start(timeout: dueTime, repeating: period.map { UVTimer.milliseconds($0) == 0 ? .milliseconds(1) : $0 })
                } catch {
                    // Initialised but not started: it must still be closed.
                    timer.close()
                    throw error
                }
                return timer
            } onError: { error in
                observer.onError(error)
            }
            return subscription
        }
    }
}
