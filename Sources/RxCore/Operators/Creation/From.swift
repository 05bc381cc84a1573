extension ObservableType {
    /// An observable that emits `elements` in order, then completes.
    ///
    /// Each element, and the completion, is one recursive step on `scheduler`.
    /// On the default `CurrentThreadScheduler` the steps run on the subscribing
    /// thread's trampoline: subscribed from inside other scheduled work, the
    /// elements interleave with the rest of the trampoline's queue as in
    /// RxSwift. Disposing stops the remaining steps.
    ///
    ///     of(1, 2, 3): 1-2-3-|
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableArray(elements: elements, scheduler: scheduler)
    }

    /// An observable that emits the elements of `array` in order, then completes.
    ///
    /// Each element, and the completion, is one recursive step on `scheduler`;
    /// disposing stops the remaining steps.
    ///
    ///     from([1, 2, 3]): 1-2-3-|
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableArray(elements: array, scheduler: scheduler)
    }

    /// An observable that emits the elements of `sequence` in order, then completes.
    ///
    /// The sequence is iterated anew for every subscriber. Each element, and
    /// the completion, is one recursive step on `scheduler`; disposing stops
    /// the remaining steps (and the iteration).
    ///
    ///     from(1...3): 1-2-3-|
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element>
    where Sequence.Element == Element {
        ObservableSequence(elements: sequence, scheduler: scheduler)
    }

    /// An observable that emits `optional`'s value if it has one, then
    /// completes, synchronously on subscribe.
    ///
    ///     from(optional: 1):   1|
    ///     from(optional: nil): |
    public static func from(optional: Element?) -> Observable<Element> {
        ObservableOptional(optional: optional)
    }

    /// An observable that emits `optional`'s value if it has one, then
    /// completes, on `scheduler`: the value and the completion are two
    /// scheduled actions (only the completion for `nil`). Disposing cancels
    /// what has not run yet.
    ///
    ///     from(optional: 1, scheduler: s):   -1-|
    ///     from(optional: nil, scheduler: s): -|
    public static func from(optional: Element?, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        ObservableOptionalScheduled(optional: optional, scheduler: scheduler)
    }
}

private final class ObservableArraySink<Observer: ObserverType>: Sink<Observer>, SynchronousSourceSink, @unchecked Sendable {
    typealias State = Int

    private let elements: [Observer.Element]

    init(elements: [Observer.Element], observer: Observer, cancel: SinkDisposer) {
        self.elements = elements
        super.init(observer: observer, cancel: cancel)
    }

    @inline(__always)
    func step(_ index: inout Int) -> Bool {
        if index < elements.count {
            let element = elements[index]
            index += 1
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

private final class ObservableArray<Element>: Producer<Element> {
    private let elements: [Element]
    private let scheduler: ImmediateSchedulerType

    init(elements: [Element], scheduler: ImmediateSchedulerType) {
        self.elements = elements
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = ObservableArraySink(elements: elements, observer: observer, cancel: cancel)
        let subscription = sink.drive(0, on: scheduler)
        return (sink: sink, subscription: subscription)
    }
}

private final class ObservableSequenceSink<Elements: Sequence, Observer: ObserverType>: Sink<Observer>, SynchronousSourceSink, @unchecked Sendable where Elements.Element == Observer.Element {
    typealias State = Elements.Iterator

    @inline(__always)
    func step(_ iterator: inout Elements.Iterator) -> Bool {
        if let element = iterator.next() {
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

private final class ObservableSequence<Elements: Sequence>: Producer<Elements.Element> {
    private let elements: Elements
    private let scheduler: ImmediateSchedulerType

    init(elements: Elements, scheduler: ImmediateSchedulerType) {
        self.elements = elements
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Elements.Element {
        let sink = ObservableSequenceSink<Elements, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.drive(elements.makeIterator(), on: scheduler)
        return (sink: sink, subscription: subscription)
    }
}

private final class ObservableOptional<Element>: Producer<Element> {
    private let optional: Element?

    init(optional: Element?) {
        self.optional = optional
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if let optional {
            observer.on(.next(optional))
        }
        observer.on(.completed)
        return Disposables.create()
    }
}

private final class ObservableOptionalScheduledSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    func run(optional: Observer.Element?, scheduler: ImmediateSchedulerType) -> Disposable {
        scheduler.schedule(optional) { optional in
            guard let element = optional else {
                self.forwardCompleted()
                return Disposables.create()
            }
            self.forwardNext(element)
            return scheduler.schedule(()) { _ in
                self.forwardCompleted()
                return Disposables.create()
            }
        }
    }
}

private final class ObservableOptionalScheduled<Element>: Producer<Element> {
    private let optional: Element?
    private let scheduler: ImmediateSchedulerType

    init(optional: Element?, scheduler: ImmediateSchedulerType) {
        self.optional = optional
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = ObservableOptionalScheduledSink(observer: observer, cancel: cancel)
        let subscription = sink.run(optional: optional, scheduler: scheduler)
        return (sink: sink, subscription: subscription)
    }
}
