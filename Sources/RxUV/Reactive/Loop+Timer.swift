@_spi(Bridge) import RxCore

extension Reactive where Base == Loop {
    /// Emits 0 after `dueTime`, then (with `period`) 1, 2, ... every period;
    /// without a period it completes right after the 0.
    ///
    /// Each subscription owns one `uv_timer_t`; events arrive on the loop
    /// thread. Disposing stops and closes the timer (`uv_close`), from any
    /// thread, also from inside its own `onNext`. A timer that cannot be
    /// started emits `.error(UVError)`; so does a subscription from another
    /// thread to a closed loop (`EINVAL`). The corresponding libuv function
    /// is `uv_timer_start`.
    public func timer(after dueTime: RxTimeInterval, repeating period: RxTimeInterval? = nil) -> Observable<Int> {
        LoopTimer(loop: base, dueTime: dueTime, period: period)
    }
}

/// The observable of `loop.rx.timer`: one sink and one `uv_timer_t` per
/// subscription, the sink receiving the expiries directly.
private final class LoopTimer: Producer<Int> {
    private let loop: Loop
    private let dueTime: RxTimeInterval
    private let period: RxTimeInterval?

    init(loop: Loop, dueTime: RxTimeInterval, period: RxTimeInterval?) {
        self.loop = loop
        self.dueTime = dueTime
        self.period = period
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Int {
        let sink = LoopTimerSink(loop: loop, dueTime: dueTime, period: period, observer: observer, cancel: cancel)
        sink.start("uv_timer_start")
        return (sink: sink, subscription: Disposables.create())
    }
}

/// Owns the timer of one `loop.rx.timer` subscription and receives its
/// expiries.
private final class LoopTimerSink<Observer: ObserverType>: HandleSink<Observer>, UVTimerTarget, @unchecked Sendable where Observer.Element == Int {
    private let dueTime: RxTimeInterval
    private let period: RxTimeInterval?
    // Loop-thread state.
    private var tick = 0

    init(loop: Loop, dueTime: RxTimeInterval, period: RxTimeInterval?, observer: Observer, cancel: SinkDisposer) {
        self.dueTime = dueTime
        self.period = period
        super.init(loop: loop, observer: observer, cancel: cancel)
    }

    override func open() throws(UVError) {
        let timer = try UVTimer(loop: loop)
        try timer.closingIfFails { () throws(UVError) in try timer.start(timeout: dueTime, repeating: period) }
        timer.target = self
        own(timer)
    }

    func timerFired() {
        let value = tick
        tick += 1
        forwardNext(value)
        if period == nil {
            releaseOwned()
            forwardCompleted()
        }
    }
}
