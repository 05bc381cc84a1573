import Synchronization

extension ObservableType {
    /// Emits the latest element of the source each time `sampler` emits,
    /// if the source emitted since the previous sample.
    ///
    /// A sampler tick with no new element emits `defaultValue` when one is
    /// given, and nothing otherwise. When `sampler` completes it takes one
    /// last sample. The source's completion is held back until the next
    /// sampler tick (or sampler completion), which takes a last sample and
    /// then completes. An error from either side is forwarded at once.
    /// Disposing disposes both subscriptions.
    ///
    ///     source:  -1-2----3---4-5--|
    ///     sampler: ----x--x--x----x---x
    ///     sample:  ----2-----3----5---|
    ///
    /// - Parameters:
    ///   - sampler: the sequence whose elements (and completion) trigger samples.
    ///   - defaultValue: emitted on a tick when no new element arrived.
    public func sample<Source: ObservableType>(_ sampler: Source, defaultValue: Element? = nil) -> Observable<Element> {
        Sample(source: asObservable(), sampler: sampler.asObservable(), defaultValue: defaultValue)
    }
}

private final class SampleSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: SerialDeliveryState, @unchecked Sendable {
        var element: Element?
        var atEnd = false
        var delivery = SerialDelivery<Event<Element>>()
    }

    private let defaultValue: Element?
    private let state = Mutex(State())
    private let sourceSubscription = SingleAssignmentDisposable()

    init(defaultValue: Element?, observer: Observer, cancel: SinkDisposer) {
        self.defaultValue = defaultValue
        super.init(observer: observer, cancel: cancel)
    }

    func run<SampleType>(source: Observable<Element>, sampler: Observable<SampleType>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        let samplerSubscription = sampler.subscribe(SamplerObserver<SampleType, Observer>(parent: self))
        return Disposables.create(sourceSubscription, samplerSubscription)
    }

    /// Events of the source.
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            state.withLock { $0.element = element }
        case .error:
            forwardSerially(event, in: state)
        case .completed:
            state.withLock { $0.atEnd = true }
            sourceSubscription.dispose()
        }
    }

    /// A tick (element or completion) of the sampler.
    func sampleTick() {
        let first = state.withLock { state -> Event<Element>? in
            var first: Event<Element>?
            if let element = state.element ?? defaultValue {
                state.element = nil
                first = state.delivery.accept(.next(element))
            }
            if state.atEnd {
                let completed = state.delivery.accept(.completed)
                first = first ?? completed
            }
            return first
        }
        forwardSerially(accepted: first, in: state)
    }

    /// The sampler failed.
    func samplerFailed(_ error: Swift.Error) {
        forwardSerially(.error(error), in: state)
    }
}

/// Observes the sampler for a `SampleSink`.
private final class SamplerObserver<SampleType, Observer: ObserverType>: ObserverType {
    private let parent: SampleSink<Observer>

    init(parent: SampleSink<Observer>) {
        self.parent = parent
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    func on(_ event: Event<SampleType>) {
        switch event {
        case .next, .completed:
            parent.sampleTick()
        case .error(let error):
            parent.samplerFailed(error)
        }
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

private final class Sample<Element, SampleType>: Producer<Element> {
    private let source: Observable<Element>
    private let sampler: Observable<SampleType>
    private let defaultValue: Element?

    init(source: Observable<Element>, sampler: Observable<SampleType>, defaultValue: Element?) {
        self.source = source
        self.sampler = sampler
        self.defaultValue = defaultValue
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = SampleSink(defaultValue: defaultValue, observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, sampler: sampler)
        return (sink: sink, subscription: subscription)
    }
}
