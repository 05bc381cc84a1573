extension ObservableType {
    /// Runs side effects for each event and for the subscription's lifecycle,
    /// and passes every event through unchanged.
    ///
    /// Order, for each subscription:
    /// 1. `onSubscribe`, then the source is subscribed, then `onSubscribed`;
    /// 2. for each event: `onNext` / `onError` / `onCompleted`, then the event
    ///    is forwarded, then `afterNext` / `afterError` / `afterCompleted`;
    ///    a terminal event then disposes the subscription;
    /// 3. on dispose (after a terminal event or by the subscriber): the source
    ///    subscription is disposed, then `onDispose` runs, once.
    ///
    /// A synchronous source may terminate before `onSubscribed` runs; its
    /// disposal then happens before `onSubscribed` and `onDispose` after it.
    ///
    /// If a before-handler throws, its error is forwarded instead of the event
    /// and the subscription is disposed. If `afterNext` throws, the error
    /// follows the element and the subscription is disposed. If
    /// `afterError` or `afterCompleted` throws, the terminal event has already
    /// been delivered, so the error is dropped (RxSwift would forward a second
    /// terminal event, which breaks the event grammar).
    ///
    ///     source:                 --1--2--|
    ///     do(onNext: { print }):  --1--2--|   prints 1, 2
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        Do(
            source: asObservable(),
            handlers: DoHandlers(
                onNext: onNext, afterNext: afterNext,
                onError: onError, afterError: afterError,
                onCompleted: onCompleted, afterCompleted: afterCompleted
            ),
            onSubscribe: onSubscribe,
            onSubscribed: onSubscribed,
            onDispose: onDispose
        )
    }
}

/// The per-event hooks of `do`.
private struct DoHandlers<Element> {
    let onNext: ((Element) throws -> Void)?
    let afterNext: ((Element) throws -> Void)?
    let onError: ((Swift.Error) throws -> Void)?
    let afterError: ((Swift.Error) throws -> Void)?
    let onCompleted: (() throws -> Void)?
    let afterCompleted: (() throws -> Void)?
}

private final class DoSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let handlers: DoHandlers<Element>

    init(handlers: DoHandlers<Element>, observer: Observer, cancel: SinkDisposer) {
        self.handlers = handlers
        super.init(observer: observer, cancel: cancel)
    }

    /// The element path, without an `Event`: `onNext`, the element, `afterNext`.
    func onNext(_ element: Element) {
        if let onNext = handlers.onNext {
            do {
                try onNext(element)
            } catch {
                forwardError(error)
                return
            }
        }
        forwardNext(element)
        if let afterNext = handlers.afterNext {
            do {
                try afterNext(element)
            } catch {
                forwardError(error)
            }
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            end(event, before: handlers.onError.map { hook in { try hook(error) } }, after: handlers.afterError.map { hook in { try hook(error) } })
        case .completed:
            end(event, before: handlers.onCompleted, after: handlers.afterCompleted)
        }
    }

    /// The terminal path: the hook (its error replaces the event), the
    /// event, the after-hook (the sequence has ended: its error goes
    /// nowhere), then the subscription is disposed.
    private func end(_ event: Event<Element>, before: (() throws -> Void)?, after: (() throws -> Void)?) {
        do {
            try before?()
        } catch {
            forwardError(error)
            return
        }
        forwardOn(event)
        _ = try? after?()
        dispose()
    }
}

private final class Do<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let handlers: DoHandlers<Element>
    private let onSubscribe: (() -> Void)?
    private let onSubscribed: (() -> Void)?
    private let onDispose: (() -> Void)?

    init(source: Observable<Element>, handlers: DoHandlers<Element>, onSubscribe: (() -> Void)?, onSubscribed: (() -> Void)?, onDispose: (() -> Void)?) {
        self.source = source
        self.handlers = handlers
        self.onSubscribe = onSubscribe
        self.onSubscribed = onSubscribed
        self.onDispose = onDispose
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        onSubscribe?()
        let sink = DoSink(handlers: handlers, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        onSubscribed?()
        guard let onDispose else {
            return (sink: sink, subscription: subscription)
        }
        let withHook = Disposables.create {
            subscription.dispose()
            onDispose()
        }
        return (sink: sink, subscription: withHook)
    }
}
