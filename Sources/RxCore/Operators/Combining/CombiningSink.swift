import Synchronization

// The engine shared by `combineLatest` and `zip`, for every arity and for
// collections of sources. The public arity wrappers only describe how their
// typed values are stored (`Values`) and read out (`take`); this file does
// the bookkeeping (who has values, who is done), the completion rules and the
// serialised delivery.

/// The completion and storage rules of one combining operator, as RxSwift 6
/// has them.
struct CombiningRules {
    /// `zip`: every element is queued and each result consumes one element of
    /// every source. `combineLatest`: only the latest element of each source
    /// is kept and reused by every result.
    let queuesValues: Bool
    /// When a source emits, no result can be produced yet and every other
    /// source has completed, complete at once (RxSwift's combineLatest, and
    /// its zip over a collection; its zip of 2...8 sources waits until every
    /// source has completed).
    let completesWhenOthersDone: Bool
    /// With no sources at all, emit the result of no values before completing
    /// (RxSwift's combineLatest over an empty collection).
    let emitsWithoutSources: Bool

    /// `combineLatest`, for 2...8 sources and for collections.
    static let combineLatest = CombiningRules(queuesValues: false, completesWhenOthersDone: true, emitsWithoutSources: true)
    /// `zip` of 2...8 sources.
    static let zip = CombiningRules(queuesValues: true, completesWhenOthersDone: false, emitsWithoutSources: false)
    /// `zip` over a collection of sources.
    static let zipCollection = CombiningRules(queuesValues: true, completesWhenOthersDone: true, emitsWithoutSources: false)
}

/// What a source's observer reports to its combining sink. It hides the
/// sink's downstream observer type, which is not known when the operator is
/// built.
protocol CombiningInput<Values>: AnyObject {
    associatedtype Values

    /// Source `index` produced an element, which `store` writes into the values.
    func next(_ index: Int, store: (inout Values) -> Void)
    /// Source `index` failed.
    func fail(_ index: Int, _ error: Swift.Error)
    /// Source `index` completed.
    func done(_ index: Int)
}

/// One source of a combining operator, ready to be subscribed: the typed
/// observable and where its elements go in `Values`.
struct CombiningSource<Values> {
    let subscribe: (any CombiningInput<Values>, Int) -> Disposable

    /// `store(&values, index, element)` records an element of `source` at position `index`.
    init<Source: ObservableType>(_ source: Source, store: @escaping (inout Values, Int, Source.Element) -> Void) {
        subscribe = { input, index in
            source.subscribe(CombiningSourceObserver(input: input, index: index, store: store))
        }
    }
}

/// The observer of one source: forwards its events, tagged with the
/// source's index, to the sink.
private struct CombiningSourceObserver<Element, Values>: ObserverType {
    let input: any CombiningInput<Values>
    let index: Int
    let store: (inout Values, Int, Element) -> Void

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            input.next(index) { store(&$0, index, element) }
        case .error(let error):
            input.fail(index, error)
        case .completed:
            input.done(index)
        }
    }
}

/// The observable returned by `combineLatest` and `zip`.
///
/// `Values` holds the sources' elements (latest values or queues),
/// `Snapshot` is what one result is computed from, read out of `Values` by
/// `take` under the sink's lock; `resultSelector` then runs outside the lock.
final class CombiningProducer<Values, Snapshot, Element>: Producer<Element> {
    let rules: CombiningRules
    let values: Values
    let sources: [CombiningSource<Values>]
    let take: (inout Values) -> Snapshot
    let resultSelector: (Snapshot) throws -> Element

    init(
        rules: CombiningRules,
        values: Values,
        sources: [CombiningSource<Values>],
        take: @escaping (inout Values) -> Snapshot,
        resultSelector: @escaping (Snapshot) throws -> Element
    ) {
        self.rules = rules
        self.values = values
        self.sources = sources
        self.take = take
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = CombiningSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}

/// The per-subscription state of `combineLatest` / `zip`.
///
/// Every source event updates the state under one lock and decides there
/// whether a result, a completion or an error follows. The decided events
/// go through a `SerialDelivery`: the first thread to have one becomes the
/// emitter and delivers it (running the result selector) outside the lock,
/// then delivers whatever other threads, or re-entrant sends from
/// downstream, queued meanwhile. Downstream therefore never sees two
/// overlapping calls, and sees results in the order the source events were
/// applied.
private final class CombiningSink<Values, Snapshot, Observer: ObserverType>: Sink<Observer>, CombiningInput, @unchecked Sendable {
    typealias Parent = CombiningProducer<Values, Snapshot, Observer.Element>

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: @unchecked Sendable {
        var values: Values
        /// Elements held per source: 0 or 1 for combineLatest, the queue length for zip.
        var counts: [Int]
        var isDone: [Bool]
        /// Sources with `counts[i] > 0`.
        var numberWithValues = 0
        var numberDone = 0
        /// Stopped once a terminal event has been decided, or the sink was disposed.
        var delivery = SerialDelivery<Event<Snapshot>>()
    }

    private let parent: Parent
    private let arity: Int
    private let state: Mutex<State>
    private let subscriptions: [SingleAssignmentDisposable]

    init(parent: Parent, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        arity = parent.sources.count
        state = Mutex(
            State(
                values: parent.values,
                counts: [Int](repeating: 0, count: arity),
                isDone: [Bool](repeating: false, count: arity)
            ))
        subscriptions = (0..<arity).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        for (index, source) in parent.sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe(self, index))
        }
        if arity == 0 {
            finishWithoutSources()
        }
        return Disposables.create(subscriptions)
    }

    private func finishWithoutSources() {
        if parent.rules.emitsWithoutSources {
            var values = parent.values
            do {
                forwardNext(try parent.resultSelector(parent.take(&values)))
            } catch {
                forwardError(error)
                return
            }
        }
        forwardCompleted()
    }

    func next(_ index: Int, store: (inout Values) -> Void) {
        let rules = parent.rules
        let arity = self.arity
        let take = parent.take
        let event = state.withLock { state -> Event<Snapshot>? in
            if state.delivery.isStopped { return nil }
            store(&state.values)
            if rules.queuesValues || state.counts[index] == 0 {
                state.counts[index] += 1
                if state.counts[index] == 1 {
                    state.numberWithValues += 1
                }
            }
            if state.numberWithValues == arity {
                let snapshot = take(&state.values)
                if rules.queuesValues {
                    for source in 0..<arity {
                        state.counts[source] -= 1
                        if state.counts[source] == 0 {
                            state.numberWithValues -= 1
                        }
                    }
                }
                return state.delivery.accept(.next(snapshot))
            }
            let othersDone = state.numberDone - (state.isDone[index] ? 1 : 0)
            if rules.completesWhenOthersDone && othersDone == arity - 1 {
                return state.delivery.accept(.completed)
            }
            return nil
        }
        emit(event)
    }

    func fail(_ index: Int, _ error: Swift.Error) {
        let event = state.withLock { state -> Event<Snapshot>? in
            state.delivery.accept(.error(error))
        }
        subscriptions[index].dispose()
        emit(event)
    }

    func done(_ index: Int) {
        let arity = self.arity
        let event = state.withLock { state -> Event<Snapshot>? in
            if state.delivery.isStopped || state.isDone[index] { return nil }
            state.isDone[index] = true
            state.numberDone += 1
            if state.numberDone == arity {
                return state.delivery.accept(.completed)
            }
            return nil
        }
        subscriptions[index].dispose()
        emit(event)
    }

    /// Delivers `first` (if the caller became the emitter), then every event
    /// queued meanwhile, running the result selector outside the lock.
    private func emit(_ first: Event<Snapshot>?) {
        drainSerially(first, next: { state.withLock { $0.delivery.next() } }) { event in
            switch event {
            case .next(let snapshot):
                if isDisposed { return }
                let result: Observer.Element
                do {
                    result = try parent.resultSelector(snapshot)
                } catch {
                    state.withLock { $0.delivery.stop() }
                    forwardError(error)
                    return
                }
                forwardNext(result)
            case .error(let error):
                forwardError(error)
            case .completed:
                forwardCompleted()
            }
        }
    }

    override func dispose() {
        state.withLock { $0.delivery.stop() }
        super.dispose()
    }
}
