@_spi(Bridge) import RxCore

/// The observable of `loop.rx.timer`: one sink and one `LoopTimer` per
/// subscription, the sink receiving the expiries directly.
final class TimerObservable: Producer<Int> {
    private let loop: Loop
    /// The timeout and period in libuv's milliseconds (period 0: once).
    private let timeout: UInt64
    private let period: UInt64

    init(loop: Loop, dueTime: RxTimeInterval, period: RxTimeInterval?) {
        self.loop = loop
        self.timeout = LoopTimer.milliseconds(dueTime)
        self.period = LoopTimer.periodMilliseconds(period)
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Int {
        let sink = TimerSink(loop: loop, timeout: timeout, period: period, observer: observer, cancel: cancel)
        sink.start("uv_timer_start")
        return (sink: sink, subscription: Disposables.create())
    }
}

/// Owns the timer of one `loop.rx.timer` subscription and receives its
/// expiries.
final class TimerSink<Observer: ObserverType>: HandleSink<Observer>, UVTimerTarget, @unchecked Sendable where Observer.Element == Int {
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
