import Synchronization

/// The base of every operator observable: subscribing creates the operator's
/// sink through `run(_:cancel:)` and returns a `SinkDisposer` that tears the
/// sink and its upstream subscription down together.
///
/// Subscription goes through `CurrentThreadScheduler`, so synchronous sources
/// subscribed from inside another subscription are ordered as in RxSwift.
///
/// Part of the `Bridge` SPI: an event-loop binding (RxUV) subclasses it for
/// its own sources (a socket's reads, a write), which deliver to their sink
/// directly instead of through `Observable.create`'s closures and
/// `AnyObserver`.
@_spi(Bridge)
open class Producer<Element>: Observable<Element> {
    /// Creates the producer.
    @_spi(Bridge)
    public override init() {
        super.init()
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        CurrentThreadScheduler.subscribe { subscribeNow(observer) }
    }

    private func subscribeNow<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        switch runSource(observer) {
        case .subscribed(let subscription):
            return subscription
        case .runsSink:
            return subscribeSink { run(observer, cancel: $0) }
        }
    }

    /// Makes a `SinkDisposer`, has `makeSink` create the sink with it as
    /// `cancel` and subscribe upstream, and hands both to the disposer, which
    /// it returns: how every sink subscription starts, `run(_:cancel:)`'s
    /// and a `runSource` that goes on with a sink.
    @_spi(Bridge)
    @inline(__always)
    public final func subscribeSink(_ makeSink: (SinkDisposer) -> (sink: SinkBase, subscription: Disposable)) -> Disposable {
        var disposer = SinkDisposer.make()
        // Handed over as a temporary, not bound to locals: once the
        // disposer has let go of an ended subscription, nothing here still
        // holds the sink (and through it the disposer).
        disposer.setSinkAndSubscription(makeSink(disposer))
        // A subscription that ended during subscribe (`just(1).map { … }`)
        // needs no disposer: when nothing else holds this one, the thread
        // keeps it for its next subscription, and the caller gets a no-op.
        guard disposer.isFinished, isKnownUniquelyReferenced(&disposer) else {
            return disposer
        }
        return SinkDisposer.keepAsSpare(consume disposer)
    }

    /// For a source whose work often finishes during subscribe (a write the
    /// kernel takes at once): does it, delivers the terminal event and
    /// returns a no-op; `run(_:cancel:)` is not called and no `SinkDisposer`
    /// is made. When the work goes on, it returns the
    /// subscription it made through `subscribeSink`, never the bare sink, which would keep its observer (and whatever that
    /// captures) alive for as long as the caller holds the subscription.
    /// `.runsSink` (the default) subscribes through `run(_:cancel:)`.
    @_spi(Bridge)
    open func runSource<Observer: ObserverType>(_ observer: Observer) -> SourceStart where Observer.Element == Element {
        .runsSink
    }

    /// Creates the operator's sink for `observer` and subscribes it upstream.
    /// Every subclass implements it. `cancel` disposes the whole
    /// subscription; a sink passes it to `Sink.init`. A source that finishes
    /// inside `run` may call `observer` directly and return no-op disposables.
    @_spi(Bridge)
    open func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        preconditionFailure("\(type(of: self)) does not implement run(_:cancel:)")
    }
}

/// What `Producer.runSource(_:)` did with an observer: subscribed it
/// itself, or left it to `run(_:cancel:)`'s sink.
///
/// Part of the `Bridge` SPI. An enum of its own rather than a
/// `Disposable?`: an optional of an existential is copied and destroyed
/// through `Optional`'s generic value witnesses, once per subscription.
@_spi(Bridge)
public enum SourceStart {
    /// The source subscribed the observer: its subscription, as the
    /// caller gets it.
    case subscribed(Disposable)
    /// The source leaves the observer to `run(_:cancel:)`.
    case runsSink
}

/// Disposes a sink and its upstream subscription, once, whichever comes first:
/// the dispose or the moment both are known. Every `Producer` subscription
/// has one; a sink holds it as `cancel` (a class, not an existential: one
/// word per sink, and a direct call to dispose).
///
/// Part of the `Bridge` SPI, as the type of `Producer.run`'s `cancel`.
///
/// `@unchecked Sendable`: `sink` and `subscription` are ordered by the
/// `HandOverFlags` protocol.
@_spi(Bridge)
public final class SinkDisposer: Cancelable, @unchecked Sendable {
    private let flags = HandOverFlags()
    // Unchecked exclusivity: written once before `flags.publish`, moved out
    // once by the caller `flags` picks (see `HandOverFlags`); the runtime's
    // dynamic checks (six `swift_beginAccess` calls per subscription) would
    // only cost time.
    //
    //
    // The sink as a class reference (`SinkBase`): one word, moved and
    // released as a pointer. The subscription not an optional: a no-op
    // stands for "none", so that storing, moving out and destroying it are
    // plain existential operations, where a `Disposable?` goes through
    // `Optional`'s generic value witnesses.
    @exclusivity(unchecked) private var sink: SinkBase?
    @exclusivity(unchecked) private var subscription: Disposable = NopDisposable()

    init() {
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// The calling thread's spare disposer, or a new one.
    ///
    /// A subscription that ends during `subscribe` leaves its disposer
    /// finished and held by nothing else; `keepAsSpare(_:)` gives it to the
    /// thread, and the thread's next subscription takes it here instead of
    /// allocating, so a synchronous subscription costs its sinks and its
    /// observer and no disposer. One spare per thread, released with it.
    /// Its ownership moves in and out of the thread's slot: no reference
    /// counting, which would cost more than the allocation it saves.
    static func make() -> SinkDisposer {
        withCurrentTrampoline { trampoline in
            guard let spare = trampoline.spareDisposer else {
                return SinkDisposer()
            }
            trampoline.spareDisposer = nil
            #if TRACE_RESOURCES
            // In use again: counted again (see `keepAsSpare`).
            _ = Resources.incrementTotal()
            #endif
            return spare.takeRetainedValue()
        }
    }

    /// `true` once the subscription is over: the sink and the subscription
    /// were handed over and disposed.
    var isFinished: Bool {
        flags.isFinished
    }

    /// Keeps `disposer`, finished and held by nothing else, as the calling
    /// thread's spare, unless the thread has one: returns what the caller
    /// hands out instead, a no-op, or `disposer` itself when it was not
    /// kept.
    static func keepAsSpare(_ disposer: consuming SinkDisposer) -> Disposable {
        // Whatever the threads that last touched it wrote is seen before
        // it starts over.
        atomicMemoryFence(ordering: .acquiring)
        // The caller's reference becomes the slot's: retained here and
        // released as `disposer` ends, a pair the optimiser removes.
        let kept = Unmanaged.passRetained(disposer)
        let stored = withCurrentTrampoline { trampoline -> Bool in
            guard trampoline.spareDisposer == nil else { return false }
            kept._withUnsafeGuaranteedRef { $0.flags.reset() }
            trampoline.spareDisposer = kept
            return true
        }
        guard stored else {
            return kept.takeRetainedValue()
        }
        #if TRACE_RESOURCES
        // A spare is no live object: the leak gates count subscriptions.
        _ = Resources.decrementTotal()
        #endif
        return NopDisposable()
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        flags.isDisposed
    }

    /// Hands over the sink and its upstream subscription, once; disposes
    /// both at once if the disposer was disposed meanwhile.
    func setSinkAndSubscription(_ contents: consuming (sink: SinkBase, subscription: Disposable)) {
        (self.sink, self.subscription) = contents
        if flags.publish(twice: "SinkDisposer: sink and subscription set twice") {
            disposeBoth()
        }
    }

    /// Disposes the sink and the upstream subscription (at once, or as soon
    /// as both are known); later calls do nothing.
    public func dispose() {
        if flags.dispose() {
            disposeBoth()
        }
    }

    private func disposeBoth() {
        // Moved out, not copied, and no separate clearing.
        let sink = self.sink.take()
        var subscription: Disposable = NopDisposable()
        swap(&subscription, &self.subscription)
        sink?.dispose()
        subscription.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
