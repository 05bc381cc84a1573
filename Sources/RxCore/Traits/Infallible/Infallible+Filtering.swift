extension InfallibleType where Element: Equatable {
    /// Drops elements equal to the one before.
    ///
    ///     source:                   --1--1--2--1--|
    ///     distinctUntilChanged():   --1-----2--1--|
    public func distinctUntilChanged() -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged())
    }
}

extension InfallibleType {
    /// Drops elements whose key equals the previous element's key.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) -> Key) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(keySelector))
    }

    /// Drops elements that `comparer` finds equal to the previous one.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(comparer))
    }

    /// Drops elements whose key `comparer` finds equal to the previous key.
    public func distinctUntilChanged<Key>(_ keySelector: @escaping (Element) -> Key, comparer: @escaping (Key, Key) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Drops elements whose property at `keyPath` equals the previous one's.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(at: keyPath))
    }

    /// Emits an element only after `dueTime` has passed without another one;
    /// completion flushes the pending element.
    ///
    ///     source:          --1-2------3--|
    ///     debounce(30):    ------2------3|
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().debounce(dueTime, scheduler: scheduler))
    }

    /// Emits at most one element per `dueTime`: the first at once, then
    /// (with `latest`) the latest one at the end of the window.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().throttle(dueTime, latest: latest, scheduler: scheduler))
    }

    /// Emits the first `count` elements, then completes.
    ///
    ///     source:    --1--2--3--|
    ///     take(2):   --1--2|
    public func take(_ count: Int) -> Infallible<Element> {
        Infallible(asObservable().take(count))
    }

    /// Emits elements for `duration`, then completes.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().take(for: duration, scheduler: scheduler))
    }

    /// Emits elements while `predicate` holds; completes at the first that
    /// fails it (`behavior: .inclusive` emits that one too).
    public func take(while predicate: @escaping (Element) -> Bool, behavior: TakeBehavior = .exclusive) -> Infallible<Element> {
        Infallible(asObservable().take(while: predicate, behavior: behavior))
    }

    /// Emits elements until one satisfies `predicate`, then completes
    /// (`behavior: .inclusive` emits that one too).
    public func take(until predicate: @escaping (Element) -> Bool, behavior: TakeBehavior = .exclusive) -> Infallible<Element> {
        Infallible(asObservable().take(until: predicate, behavior: behavior))
    }

    /// Emits elements until `other` emits an element, then completes.
    public func take<Source: InfallibleType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().take(until: other.asObservable()))
    }

    /// Emits elements until `other` emits an element, then completes. An
    /// error of `other` cannot fail the result: it only means that `other`
    /// will never trigger.
    public func take<Source: ObservableType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().take(until: other.asObservable().catch { _ in .empty() }))
    }

    /// Drops the first `count` elements.
    public func skip(_ count: Int) -> Infallible<Element> {
        Infallible(asObservable().skip(count))
    }

    /// Drops elements for `duration` after subscription.
    public func skip(for duration: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().skip(for: duration, scheduler: scheduler))
    }

    /// Drops elements while `predicate` holds, then emits all.
    public func skip(while predicate: @escaping (Element) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().skip(while: predicate))
    }

    /// Drops elements until `other` emits an element.
    public func skip<Source: InfallibleType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().skip(until: other.asObservable()))
    }

    /// Drops elements until `other` emits an element. An error of `other`
    /// cannot fail the result: it only means that `other` will never trigger.
    public func skip<Source: ObservableType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().skip(until: other.asObservable().catch { _ in .empty() }))
    }
}
