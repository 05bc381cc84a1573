@_spi(Bridge) import RxCore

/// The Completable of work that starts on its loop's thread and may finish
/// at once there: a write on a stream. The one place where such work
/// decides where it runs: on the loop thread it starts during `subscribe`,
/// with no sink, no `SinkDisposer` and no closure; from another thread a
/// sink takes it through the loop's door and forwards its end. Subclasses
/// say what the work is (`start(_:)`).
package class LoopStart: Producer<Never> {
    /// The loop whose thread the work starts on.
    package final let loop: Loop

    /// Work on `loop`'s thread.
    package init(loop: Loop) {
        self.loop = loop
    }

    /// Starts the work and tells `observer` its end (completed, or an
    /// error), before returning when it ends at once. Returns what stops
    /// the notification (the work itself may not be taken back). Loop
    /// thread. Every subclass implements it.
    package func start<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Never {
        preconditionFailure("\(type(of: self)) does not implement start(_:)")
    }

    /// Whether the work still starts when its subscription was disposed
    /// before it reached the loop thread: `true` for a side effect that a
    /// caller cannot take back once asked for (a write keeps its place
    /// among the others).
    package class var startsWhenDisposed: Bool {
        false
    }

    /// Starts work and tells `observer` its end without a `Completable`:
    /// on `loop`'s thread `here` starts it during the call (nothing is
    /// made); from another thread the `LoopStart` that `elsewhere` makes is
    /// subscribed. Returns what stops the notification.
    @inline(__always)
    package static func start<Observer: ObserverType>(
        on loop: Loop, notifying observer: Observer, here: (Observer) -> Disposable, elsewhere: () -> LoopStart
    ) -> Disposable where Observer.Element == Never {
        if loop.isOnLoopThread {
            return here(observer)
        }
        return elsewhere().subscribe(observer)
    }

    override package final func runSource<Observer: ObserverType>(_ observer: Observer) -> Disposable? where Observer.Element == Never {
        guard loop.isOnLoopThread else { return nil }
        return start(observer)
    }

    override package final func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Never {
        let sink = LoopStartSink(work: self, observer: observer, cancel: cancel)
        sink.start("LoopStart")
        return (sink: sink, subscription: Disposables.create())
    }
}

/// Work started from another thread: it starts on the loop thread through
/// the door (`HandleSink.start`, a typed step, no closure) and its end is
/// forwarded unless the subscription was disposed first. It owns nothing:
/// disposing stops the notification.
private final class LoopStartSink<Observer: ObserverType>: HandleSink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element == Never {
    private let work: LoopStart

    init(work: LoopStart, observer: Observer, cancel: SinkDisposer) {
        self.work = work
        super.init(loop: work.loop, observer: observer, cancel: cancel)
    }

    override func open() throws(UVError) {
        guard !isDisposed || type(of: work).startsWhenDisposed else { return }
        _ = work.start(self)
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
