extension PrimitiveSequence {
    /// Shifts the outcome forward in time by `dueTime` on `scheduler`; an
    /// error is not delayed. Disposing cancels what is scheduled.
    ///
    ///     source:       --1|
    ///     delay(20):    ----1|
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delay(dueTime, scheduler: scheduler))
    }

    /// Subscribes to the source `dueTime` after the subscription, on
    /// `scheduler`. Disposing before then cancels the subscription.
    ///
    ///     subscribe:            ^
    ///     source subscribed:    ----^--1|
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delaySubscription(dueTime, scheduler: scheduler))
    }

    /// Fails with `RxError.timeout` if the source has not produced its
    /// outcome within `dueTime` of the subscription (the source is disposed).
    ///
    ///     source:        ------1|
    ///     timeout(30):   ---#
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, scheduler: scheduler))
    }

    /// Switches to `other` if the source has not produced its outcome within
    /// `dueTime` of the subscription (the source is disposed).
    ///
    ///     source:        ------1|
    ///     other:            --2|
    ///     timeout(30):   -----2|
    public func timeout(_ dueTime: RxTimeInterval, other: PrimitiveSequence<Trait, Element>, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, other: other.source, scheduler: scheduler))
    }
}

extension PrimitiveSequenceType where Element: RxAbstractInteger {
    /// A sequence that emits 0 after `dueTime` on `scheduler`, then completes.
    /// Disposing before then cancels the timer.
    ///
    ///     timer(30):   ---0|
    public static func timer(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable<Element>.timer(dueTime, scheduler: scheduler))
    }
}
