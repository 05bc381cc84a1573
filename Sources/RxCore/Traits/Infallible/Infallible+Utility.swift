extension InfallibleType {
    /// Runs side effects for each event and for the subscription's lifecycle,
    /// and passes every event through unchanged. `onNext` / `onCompleted` run
    /// before the event is delivered, `afterNext` / `afterCompleted` after;
    /// `onSubscribe` before the source is subscribed, `onSubscribed` after;
    /// `onDispose` once when the subscription ends.
    ///
    ///     source:               --1--2--|
    ///     do(onNext: print):    --1--2--|   prints 1, 2
    public func `do`(
        onNext: ((Element) -> Void)? = nil,
        afterNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        afterCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Infallible<Element> {
        Infallible(
            asObservable().do(
                onNext: onNext,
                afterNext: afterNext,
                onCompleted: onCompleted,
                afterCompleted: afterCompleted,
                onSubscribe: onSubscribe,
                onSubscribed: onSubscribed,
                onDispose: onDispose
            ))
    }

    /// Delivers the events on `scheduler`.
    public func observe(on scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(asObservable().observe(on: scheduler))
    }

    /// Subscribes to the source, and disposes that subscription, on
    /// `scheduler`.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(asObservable().subscribe(on: scheduler))
    }

    /// Shifts every event forward in time by `dueTime` on `scheduler`.
    ///
    ///     source:      --1--2--|
    ///     delay(20):   ----1--2--|
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().delay(dueTime, scheduler: scheduler))
    }

    /// Subscribes to the source `dueTime` after the subscription.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().delaySubscription(dueTime, scheduler: scheduler))
    }

    /// Prints every event, subscription and disposal, prefixed with
    /// `identifier` (or the call site), and passes the events through.
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function) -> Infallible<Element> {
        Infallible(asObservable().debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }

    /// Shares one subscription to the source among all subscribers,
    /// replaying the last `replay` elements to new ones; see
    /// `ObservableType.share(replay:scope:)`.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible<Element> {
        Infallible(asObservable().share(replay: replay, scope: scope))
    }

    /// Pairs each element with `object`, held weakly, through
    /// `resultSelector`; completes when `object` is gone at an element.
    public func withUnretained<Object: AnyObject, Out>(_ object: Object, resultSelector: @escaping (Object, Element) -> Out) -> Infallible<Out> {
        Infallible<Out>(asObservable().withUnretained(object, resultSelector: resultSelector))
    }

    /// Pairs each element with `object`, held weakly; completes when `object`
    /// is gone at an element.
    public func withUnretained<Object: AnyObject>(_ object: Object) -> Infallible<(Object, Element)> {
        Infallible<(Object, Element)>(asObservable().withUnretained(object))
    }
}
