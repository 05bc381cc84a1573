@_spi(Bridge) import RxCore

/// The Completable of work that starts on its loop's thread and may finish
/// at once there: a write on a stream. The one place where such work
/// decides where it runs: on the loop thread it starts during `subscribe`,
/// with no sink, no `SinkDisposer` and no closure; from another thread a
/// sink takes it through the loop's door and forwards its end. Subclasses
/// say what the work is (`start(_:)`): a stream's write and file send here,
/// a WebSocket's send in RxUVWebSocket (part of the `Bridge` SPI, as
/// `Producer`).
@_spi(Bridge)
open class LoopStart: Producer<Never> {
    /// The loop whose thread the work starts on.
    public final let loop: Loop

    /// Work on `loop`'s thread.
    public init(loop: Loop) {
        self.loop = loop
    }

    /// Starts the work and tells `observer` its end (completed, or an
    /// error), before returning when it ends at once. Returns what
    /// disposing the subscription disposes: the notification (a write,
    /// which cannot be taken back), or the work (a file send). Loop
    /// thread. Every subclass implements it.
    open func start<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Never {
        preconditionFailure("\(type(of: self)) does not implement start(_:)")
    }

    /// Whether the work still starts when its subscription was disposed
    /// before it reached the loop thread: `true` for a side effect that a
    /// caller cannot take back once asked for (a write keeps its place
    /// among the others).
    open class var startsWhenDisposed: Bool {
        false
    }

    /// Starts work and tells `observer` its end without a `Completable`:
    /// on `loop`'s thread `here` starts it during the call (nothing is
    /// made); from another thread the `LoopStart` that `elsewhere` makes is
    /// subscribed. Returns what stops the notification.
    @inline(__always)
    static func start<Observer: ObserverType>(
        on loop: Loop, notifying observer: Observer, here: (Observer) -> Disposable, elsewhere: () -> LoopStart
    ) -> Disposable where Observer.Element == Never {
        if loop.isOnLoopThread {
            return here(observer)
        }
        return elsewhere().subscribe(observer)
    }

    override public final func runSource<Observer: ObserverType>(_ observer: Observer) -> SourceStart where Observer.Element == Never {
        guard loop.isOnLoopThread else { return .runsSink }
        return .subscribed(start(observer))
    }

    override public final func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Never {
        let sink = LoopStartSink(work: self, observer: observer, cancel: cancel)
        sink.start("LoopStart")
        return (sink: sink, subscription: Disposables.create())
    }
}

/// Work started from another thread: it starts on the loop thread through
/// the door (`HandleSink.start`, a typed step, no closure) and its end is
/// forwarded unless the subscription was disposed first. It owns no
/// handle: disposing disposes what the work's start returned (a write's
/// notification; a file send, which stops after its chunk in flight).
private final class LoopStartSink<Observer: ObserverType>: HandleSink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element == Never {
    private let work: LoopStart
    /// What the work's start returned, until released. Loop thread.
    private var started: Disposable?

    init(work: LoopStart, observer: Observer, cancel: SinkDisposer) {
        self.work = work
        super.init(loop: work.loop, observer: observer, cancel: cancel)
    }

    override func open() throws(UVError) {
        guard !isDisposed || type(of: work).startsWhenDisposed else { return }
        let started = work.start(self)
        if isDisposed {
            // Ended during its start (or disposed meanwhile): released
            // already.
            started.dispose()
        } else {
            self.started = started
        }
    }

    override func didRelease() {
        started?.dispose()
        started = nil
    }

    override class var opensWhenDisposed: Bool {
        // Decided per work in `open()`.
        true
    }

    func on(_ event: Event<Never>) {
        switch event {
        case .completed: forwardCompleted()
        case .error(let error): forwardError(error)
        }
    }
}
