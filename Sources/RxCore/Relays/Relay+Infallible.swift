extension BehaviorRelay {
    /// The relay as an `Infallible`: its current value, then every accepted
    /// one. A relay never fails or completes, so neither does this.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

extension PublishRelay {
    /// The relay as an `Infallible`: every value accepted after subscribing.
    /// A relay never fails or completes, so neither does this.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

extension ReplayRelay {
    /// The relay as an `Infallible`: the values it replays, then every
    /// accepted one. A relay never fails or completes, so neither does this.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}
