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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Int {
        let sink = LoopTimerSink(loop: loop, period: period, observer: observer, cancel: cancel)
        if !loop.onLoopThread(sink, .start(after: dueTime)) {
            sink.forwardError(UVError(code: UVError.Code.invalidArgument, operation: "uv_timer_start (the loop is closed)"))
        }
        return (sink: sink, subscription: Disposables.create())
    }
}

/// What a timer sink does on the loop thread.
private enum LoopTimerStep {
    /// Open and start the timer, unless disposed first.
    case start(after: RxTimeInterval)
    /// Close the timer: the subscription was disposed.
    case close
}

private final class LoopTimerSink<Observer: ObserverType>: Sink<Observer>, UVTimerTarget, LoopThreadWork, @unchecked Sendable where Observer.Element == Int {
    private let loop: Loop
    private let period: RxTimeInterval?
    // Loop-thread state.
    private var timer: UVTimer?
    private var tick = 0

    init(loop: Loop, period: RxTimeInterval?, observer: Observer, cancel: Cancelable) {
        self.loop = loop
        self.period = period
        super.init(observer: observer, cancel: cancel)
    }

    func runOnLoopThread(_ step: LoopTimerStep) {
        switch step {
        case .start(let dueTime):
            start(after: dueTime)
        case .close:
            closeTimer()
        }
    }

    /// Opens and starts the timer unless disposed first. Loop thread.
    private func start(after dueTime: RxTimeInterval) {
        guard !isDisposed else { return }
        do throws(UVError) {
            let timer = try UVTimer(loop: loop)
            try timer.closingIfFails { () throws(UVError) in try timer.start(timeout: dueTime, repeating: period) }
            timer.target = self
            self.timer = timer
        } catch {
            forwardError(error)
        }
    }

    func timerFired() {
        let value = tick
        tick += 1
        forwardNext(value)
        if period == nil {
            closeTimer()
            forwardCompleted()
        }
    }

    private func closeTimer() {
        timer?.close()
        timer = nil
    }

    override func dispose() {
        if !isDisposed {
            loop.onLoopThread(self, .close)
        }
        super.dispose()
    }
}
