extension ObservableType where Element: RxAbstractInteger {
    /// An observable that emits the `count` integers from `start` on, then completes.
    ///
    /// Each element, and the completion, is one recursive step on `scheduler`;
    /// on the default `CurrentThreadScheduler` a long range runs in a loop and
    /// does not grow the stack. Disposing stops the remaining steps. A negative
    /// `count`, or a range that overflows `Element`, is a programmer error.
    ///
    ///     range(start: 1, count: 3): 1-2-3-|
    public static func range(start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        RangeProducer(start: start, count: count, scheduler: scheduler)
    }
}

private final class RangeSink<Observer: ObserverType>: Sink<Observer>, SynchronousSourceSink, @unchecked Sendable where Observer.Element: RxAbstractInteger {
    typealias Element = Observer.Element
    /// The next element.
    typealias State = Element

    // Made once: a literal in the loop would be converted on every step.
    private let one: Element = 1
    /// Elements still to emit, counted in `Int`: one generic integer
    /// operation per element (the increment) instead of three (a compare,
    /// an add and an increment, each a witness call in this unspecialised
    /// code). A count beyond `Int.max` is clamped, which only a range
    /// emitting for centuries could tell. Unchecked exclusivity: touched
    /// only by the source's own steps, one at a time.
    @exclusivity(unchecked) private var remaining: Int

    init(count: Element, observer: Observer, cancel: SinkDisposer) {
        self.remaining = Int(clamping: count)
        super.init(observer: observer, cancel: cancel)
    }

    @inline(__always)
    func step(_ next: inout Element) -> Bool {
        if remaining > 0 {
            remaining -= 1
            let element = next
            // Not past the last element, which may be `Element.max`.
            if remaining > 0 { next += one }
            forwardNext(element)
            return true
        }
        forwardCompleted()
        return false
    }

    func loop(_ state: inout State) -> Bool {
        let queue = CurrentThreadScheduler.queuedActionsProbe
        while !isDisposed {
            guard step(&state) else { return false }
            if queue.hasQueuedActions { return true }
        }
        return false
    }
}

private final class RangeProducer<Element: RxAbstractInteger>: Producer<Element> {
    private let start: Element
    private let count: Element
    private let scheduler: ImmediateSchedulerType

    init(start: Element, count: Element, scheduler: ImmediateSchedulerType) {
        precondition(count >= 0, "range: count can't be negative")
        precondition(count == 0 || start.addingReportingOverflow(count - 1).overflow == false, "range: start + count - 1 overflows")
        self.start = start
        self.count = count
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = RangeSink(count: count, observer: observer, cancel: cancel)
        let subscription = sink.drive(start, on: scheduler)
        return (sink: sink, subscription: subscription)
    }
}
