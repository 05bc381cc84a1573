extension ObservableType {
    /// An observable that runs a state-driven loop: it emits `initialState`,
    /// then `iterate(state)` again and again, for as long as `condition`
    /// holds, then completes.
    ///
    /// Each element, and the completion, is one recursive step on `scheduler`.
    /// If `condition` or `iterate` throws, the error is emitted. Disposing stops
    /// the remaining steps.
    ///
    ///     generate(initialState: 0, condition: { $0 < 3 }, iterate: { $0 + 1 }): 0-1-2-|
    public static func generate(
        initialState: Element,
        condition: @escaping (Element) throws -> Bool,
        scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        iterate: @escaping (Element) throws -> Element
    ) -> Observable<Element> {
        Generate(initialState: initialState, condition: condition, iterate: iterate, scheduler: scheduler)
    }
}

private final class GenerateSink<Observer: ObserverType>: Sink<Observer>, SynchronousSourceSink, @unchecked Sendable {
    typealias Element = Observer.Element
    /// The current value, and whether it is the initial one (not iterated yet).
    typealias State = (value: Element, isFirst: Bool)

    private let condition: (Element) throws -> Bool
    private let iterate: (Element) throws -> Element

    init(condition: @escaping (Element) throws -> Bool, iterate: @escaping (Element) throws -> Element, observer: Observer, cancel: SinkDisposer) {
        self.condition = condition
        self.iterate = iterate
        super.init(observer: observer, cancel: cancel)
    }

    @inline(__always)
    func step(_ state: inout State) -> Bool {
        do {
            if state.isFirst {
                state.isFirst = false
            } else {
                state.value = try iterate(state.value)
            }
            if try condition(state.value) {
                forwardNext(state.value)
                return true
            }
            forwardCompleted()
            return false
        } catch {
            forwardError(error)
            return false
        }
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

private final class Generate<Element>: Producer<Element> {
    private let initialState: Element
    private let condition: (Element) throws -> Bool
    private let iterate: (Element) throws -> Element
    private let scheduler: ImmediateSchedulerType

    init(initialState: Element, condition: @escaping (Element) throws -> Bool, iterate: @escaping (Element) throws -> Element, scheduler: ImmediateSchedulerType) {
        self.initialState = initialState
        self.condition = condition
        self.iterate = iterate
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = GenerateSink(condition: condition, iterate: iterate, observer: observer, cancel: cancel)
        let subscription = sink.drive((value: initialState, isFirst: true), on: scheduler)
        return (sink: sink, subscription: subscription)
    }
}
