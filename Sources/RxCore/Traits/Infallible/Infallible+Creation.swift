extension InfallibleType {
    /// An `Infallible` of `element`, delivered on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(Observable.just(element, scheduler: scheduler))
    }

    /// Emits `elements` in order on `scheduler`, then completes.
    ///
    ///     of(1, 2, 3):   123|
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(Observable.from(elements, scheduler: scheduler))
    }

    /// Emits the elements of `array` in order on `scheduler`, then completes.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(Observable.from(array, scheduler: scheduler))
    }

    /// Emits the elements of `sequence` in order on `scheduler`, then completes.
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element>
    where Sequence.Element == Element {
        Infallible(Observable.from(sequence, scheduler: scheduler))
    }
}

extension InfallibleType where Element: RxAbstractInteger {
    /// Emits 0, 1, 2, ... every `period` on `scheduler`, starting one
    /// `period` after subscription; never completes. Disposing stops it.
    ///
    ///     interval(100):   ---0---1---2---...
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(Observable.interval(period, scheduler: scheduler))
    }

    /// Emits 0 after `dueTime` on `scheduler`, then completes; with a
    /// `period`, goes on with 1, 2, ... every `period` and never completes.
    ///
    ///     timer(300):   ---0|
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(Observable.timer(dueTime, period: period, scheduler: scheduler))
    }
}
