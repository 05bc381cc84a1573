@_spi(Bridge) import RxCore

/// The observable of `loop.rx.signal`: one `uv_signal_t` per subscription.
final class LoopSignal: Producer<Int32> {
    private let loop: Loop
    private let signum: Int32

    init(loop: Loop, signum: Int32) {
        self.loop = loop
        self.signum = signum
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Int32 {
        let sink = LoopSignalSink(loop: loop, signum: signum, observer: observer, cancel: cancel)
        sink.start("uv_signal_start")
        return (sink: sink, subscription: Disposables.create())
    }
}

/// Owns the signal handle of one `loop.rx.signal` subscription.
final class LoopSignalSink<Observer: ObserverType>: HandleSink<Observer>, UVSignalTarget, @unchecked Sendable where Observer.Element == Int32 {
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
