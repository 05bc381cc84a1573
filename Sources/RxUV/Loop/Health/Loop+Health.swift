import RxCore

extension Loop {
    /// The loop's counters now (`LoopSample`): its vitals, libuv's idle
    /// time, the work at its door and its open handles. Any thread.
    package func sample() -> LoopSample {
        vitals.sample(of: raw, waitingWork: queue.waitingCount, openHandles: openHandlesByKind)
    }

    /// Has the loop measure its idle time from now on, for its utilization
    /// (libuv's `UV_METRICS_IDLE_TIME`), unless it does already: on the
    /// loop thread, now when called there, otherwise through its door. It
    /// is not free (libuv reads the clock and takes a lock around each poll
    /// that may block), so a loop starts it when someone first asks: a
    /// `health(every:)` subscription, a watchdog that records metrics.
    package func measureUtilization() {
        enter { [self] in vitals.measureIdleTime(of: raw) }
    }
}

extension Reactive where Base == Loop {
    /// Emits the loop's health (`LoopHealth`) every `period`: each value is
    /// the window since the previous one (since the subscription, for the
    /// first). Never completes; disposing stops it (from any thread).
    ///
    /// It runs on one of the loop's timers (`loop.rx.timer`), so values
    /// arrive on the loop thread, and a loop too busy to run its timers
    /// emits late, with a longer window and a `timerLag` that says so.
    /// The busy share comes from libuv's idle-time metric
    /// (`uv_metrics_idle_time`), which the first subscription starts for
    /// the loop's life; the turns from the loop's `uv_prepare_t`.
    /// A timer that cannot start emits `.error(UVError)`.
    ///
    /// For code that reacts to its loop's load (shedding work when
    /// `utilization` passes a bound); for metrics, a `LoopWatchdog` given
    /// a metrics interval records the same figures through swift-metrics.
    public func health(every period: Duration) -> Observable<LoopHealth> {
        let loop = base
        return Observable.deferred {
            loop.measureUtilization()
            // The sample that starts the next window: the timer's events
            // read and replace it on the loop thread.
            let start = LoopBound(loop.sample(), loop: loop)
            return loop.rx.timer(after: period, repeating: period).map { _ in
                let end = loop.sample()
                defer { start.value = end }
                return LoopHealth(from: start.value, to: end)
            }
        }
    }
}
