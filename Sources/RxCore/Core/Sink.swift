import Synchronization

/// The part of every sink that does not depend on its observer: the
/// dispose flag and `cancel`. A `SinkDisposer` holds a sink as this class,
/// a plain reference, where an existential `Disposable` would take 40 bytes
/// and, for a generic sink, a conformance looked up in the runtime per
/// subscription. Every sink is a `Sink`, which is the class to subclass.
///
/// Part of the `Bridge` SPI, as the sink's type in `Producer.run`'s result.
@_spi(Bridge)
open class SinkBase: Disposable, @unchecked Sendable {
    /// Disposes the whole subscription (this sink and its upstream); `nil`
    /// for a sink that is a subscription of its own, with no `Producer`
    /// around it (a bridge's scheduled action).
    @_spi(Bridge) public final let cancel: SinkDisposer?
    final let disposed = Atomic<Bool>(false)

    init(cancel: SinkDisposer?) {
        self.cancel = cancel
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// `true` once disposed.
    @inline(__always)
    @_spi(Bridge) public final var isDisposed: Bool {
        disposed.load(ordering: .relaxed)
    }

    /// Stops forwarding and disposes the whole subscription.
    @_spi(Bridge)
    open func dispose() {
        disposed.store(true, ordering: .relaxed)
        cancel?.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

/// The per-subscription state of an operator: it is the upstream's observer
/// and the downstream's producer. `forwardOn` delivers to the downstream
/// observer unless the sink has been disposed.
///
/// Part of the `Bridge` SPI (see `Producer`). The contract, the same for
/// every subclass:
/// - `forwardNext(_:)` (or `forwardOn(.next(_:))`) delivers an element and
///   nothing else.
/// - `forwardError(_:)` and `forwardCompleted()` deliver the terminal event
///   and then dispose the sink, which disposes the whole subscription
///   (`cancel`); after either, the sink forwards nothing more. A subclass
///   that owns resources overrides `dispose()` to release them and calls
///   `super.dispose()`; both terminal forwards and an outside dispose come
///   through it.
/// - `forwardOn(.error(_:))` and `forwardOn(.completed)` deliver without
///   disposing; a caller that uses them disposes right after.
/// - Every forward does nothing once the sink is disposed, so a dispose
///   from another thread or from inside the downstream's `onNext` stops
///   delivery at the next forward.
///
/// `@unchecked Sendable`: a sink is the `Disposable` of its subscription, so
/// it may be disposed from any thread; its dispose flag is atomic and
/// `cancel` is thread-safe. Everything else a sink (and every operator's
/// subclass) holds is touched only by its subscription's event delivery,
/// which the grammar serialises (`on` is never called concurrently), or by
/// its own lock where a sink has several upstreams.
@_spi(Bridge)
open class Sink<Observer: ObserverType>: SinkBase, @unchecked Sendable {
    /// The downstream observer.
    @_spi(Bridge) public final let observer: Observer

    /// A sink forwarding to `observer`; `cancel` is the `Producer.run`
    /// argument, or `nil` for a sink that is a subscription of its own.
    @_spi(Bridge)
    public init(observer: Observer, cancel: SinkDisposer?) {
        self.observer = observer
        super.init(cancel: cancel)
    }

    /// Delivers `event` downstream unless disposed.
    @inline(__always)
    @_spi(Bridge) public final func forwardOn(_ event: Event<Observer.Element>) {
        if disposed.load(ordering: .relaxed) { return }
        observer.on(event)
    }

    /// Delivers `element` downstream unless disposed; the element-only fast
    /// path of `forwardOn(.next(element))`.
    @inline(__always)
    @_spi(Bridge) public final func forwardNext(_ element: Observer.Element) {
        if disposed.load(ordering: .relaxed) { return }
        observer.onNext(element)
    }

    /// Delivers `.completed` downstream unless disposed, then disposes the
    /// subscription: the `Event`-free path of `forwardOn(.completed)`
    /// followed by `dispose()`, as `forwardError` does for an error.
    @inline(__always)
    @_spi(Bridge) public final func forwardCompleted() {
        if disposed.load(ordering: .relaxed) { return }
        observer.onCompleted()
        dispose()
    }

    /// Delivers `.error(error)` downstream and disposes the subscription.
    // Kept out of line on purpose: an `Event` built inline in a generic
    // element path makes the whole function look up `Event`'s metadata on
    // every call, even when nothing throws.
    @inline(never)
    @_spi(Bridge) public final func forwardError(_ error: Swift.Error) {
        forwardOn(.error(error))
        dispose()
    }

    /// An observer that forwards to this sink's downstream (for operators that
    /// hand their downstream to another subscription).
    final func forwarder() -> SinkForward<Observer> {
        SinkForward(forward: self)
    }
}

/// Forwards events straight to a sink's downstream; a terminal event also
/// disposes the sink.
struct SinkForward<Observer: ObserverType>: ObserverType {
    typealias Element = Observer.Element

    private let forward: Sink<Observer>

    init(forward: Sink<Observer>) {
        self.forward = forward
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forward.observer.on(event)
        case .error, .completed:
            forward.observer.on(event)
            forward.cancel?.dispose()
        }
    }
}
