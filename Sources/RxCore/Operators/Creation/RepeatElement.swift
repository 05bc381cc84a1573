extension ObservableType {
    /// An observable that emits `element` again and again and never completes.
    ///
    /// Each repetition is one recursive step on `scheduler`; on the default
    /// `CurrentThreadScheduler` the repetitions run in a loop, so only
    /// disposing (for example by `take`) ends them.
    ///
    ///     repeatElement(7): 7-7-7-7-...
    public static func repeatElement(_ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        RepeatElement(element: element, scheduler: scheduler)
    }
}

private final class RepeatElementSink<Observer: ObserverType>: Sink<Observer>, SynchronousSourceSink, @unchecked Sendable {
    typealias State = Void

    private let element: Observer.Element

    init(element: Observer.Element, observer: Observer, cancel: SinkDisposer) {
        self.element = element
        super.init(observer: observer, cancel: cancel)
    }

    @inline(__always)
    func step(_ state: inout Void) -> Bool {
        forwardNext(element)
        return true
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

private final class RepeatElement<Element>: Producer<Element> {
    private let element: Element
    private let scheduler: ImmediateSchedulerType

    init(element: Element, scheduler: ImmediateSchedulerType) {
        self.element = element
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = RepeatElementSink(element: element, observer: observer, cancel: cancel)
        let subscription = sink.drive((), on: scheduler)
        return (sink: sink, subscription: subscription)
    }
}
