extension PrimitiveSequence {
    /// Delivers the outcome on `scheduler`. Subscription and disposal still
    /// happen where they are called; use `subscribe(on:)` to move them.
    ///
    ///     source:            --1|
    ///     observe(on: s):    --1|   (delivered by s)
    public func observe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.observe(on: scheduler))
    }

    /// Subscribes to the source, and disposes that subscription, on
    /// `scheduler`. Events arrive where the source emits them.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.subscribe(on: scheduler))
    }
}
