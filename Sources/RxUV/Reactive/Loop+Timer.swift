@_spi(Bridge) import RxCore

extension Reactive where Base == Loop {
    /// Emits 0 after `dueTime`, then (with `period`) 1, 2, ... every period;
    /// without a period it completes right after the 0. Durations are rounded
    /// up to whole milliseconds; a period is at least 1 ms.
    ///
    /// Each subscription owns one of the loop's timers: all of them run on
    /// one `uv_timer_t` and expire in libuv's order (due time, then the order
    /// they were started in). Events arrive on the loop thread. Disposing
    /// stops the timer, from any thread, also from inside its own `onNext`.
    /// A timer that cannot be started emits `.error(UVError)`; so does a
    /// subscription from another thread to a closed loop (`EINVAL`). The
    /// corresponding libuv function is `uv_timer_start`.
    public func timer(after dueTime: RxTimeInterval, repeating period: RxTimeInterval? = nil) -> Observable<Int> {
        TimerObservable(loop: base, dueTime: dueTime, period: period)
    }
}

/// The observable of `loop.rx.timer`: one sink and one `LoopTimer` per
/// subscription, the sink receiving the expiries directly.
private final class TimerObservable: Producer<Int> {
    private let loop: Loop
    /// The timeout and period in libuv's milliseconds (period 0: once).
    private let timeout: UInt64
    private let period: UInt64

    init(loop: Loop, dueTime: RxTimeInterval, period: RxTimeInterval?) {
        self.loop = loop
        self.timeout = LoopTimer.milliseconds(dueTime)
        self.period = LoopTimer.periodMilliseconds(period)
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Int {
        let sink = TimerSink(loop: loop, timeout: timeout, period: period, observer: observer, cancel: cancel)
        sink.start("uv_timer_start")
        return (sink: sink, subscription: Disposables.create())
    }
}

/// Owns the timer of one `loop.rx.timer` subscription and receives its
/// expiries.
private final class TimerSink<Observer: ObserverType>: HandleSink<Observer>, UVTimerTarget, @unchecked Sendable where Observer.Element == Int {
    private let timeout: UInt64
    private let period: UInt64
    // Loop-thread state.
    private var tick = 0

    init(loop: Loop, timeout: UInt64, period: UInt64, observer: Observer, cancel: SinkDisposer) {
        self.timeout = timeout
        self.period = period
        super.init(loop: loop, observer: observer, cancel: cancel)
    }

    override func open() throws(UVError) {
        let timer = LoopTimer(loop: loop)
        try timer.start(milliseconds: timeout, periodMilliseconds: period)
        timer.target = self
        own(timer)
    }

    func timerFired() {
        let value = tick
        tick += 1
        forwardNext(value)
        if period == 0 {
            releaseOwned()
            forwardCompleted()
        }
    }
}
