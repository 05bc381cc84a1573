import RxCore
import Synchronization

extension BlockingObservable {
    /// Every element, once the sequence completes.
    ///
    /// - Throws: the sequence's error, or `RxError.timeout`.
    public func toArray() throws -> [Element] {
        try elementsOrThrow(run())
    }

    /// The first element, or `nil` if the sequence completes empty. The
    /// subscription is disposed as soon as the first element arrives.
    ///
    /// - Throws: the sequence's error, or `RxError.timeout`.
    public func first() throws -> Element? {
        try elementsOrThrow(run(max: 1)).first
    }

    /// The last element, or `nil` if the sequence completes empty.
    ///
    /// - Throws: the sequence's error, or `RxError.timeout`.
    public func last() throws -> Element? {
        try elementsOrThrow(run()).last
    }

    /// The only element of the sequence.
    ///
    /// - Throws: `RxError.noElements` if it completes empty,
    ///   `RxError.moreThanOneElement` as soon as a second element arrives,
    ///   the sequence's error, or `RxError.timeout`.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// The only element that satisfies `predicate`.
    ///
    /// - Throws: `RxError.noElements` if none does,
    ///   `RxError.moreThanOneElement` as soon as a second one arrives, the
    ///   error `predicate` throws, the sequence's error, or
    ///   `RxError.timeout`.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        let elements = try elementsOrThrow(run(max: 2, predicate: predicate))
        if elements.count > 1 { throw RxError.moreThanOneElement }
        guard let element = elements.first else { throw RxError.noElements }
        return element
    }

    /// How the sequence ended, with every element: `.completed(elements:)`
    /// or `.failed(elements:error:)` (a timeout fails with
    /// `RxError.timeout`). Never throws.
    public func materialize() -> MaterializedSequenceResult<Element> {
        run()
    }

    private func elementsOrThrow(_ result: MaterializedSequenceResult<Element>) throws -> [Element] {
        switch result {
        case .completed(let elements): return elements
        case .failed(_, let error): throw error
        }
    }

    /// Subscribes, collects the elements that satisfy `predicate` until the
    /// end or until there are `max` of them, and waits for that.
    private func run(max: Int? = nil, predicate: @escaping (Element) throws -> Bool = { _ in true }) -> MaterializedSequenceResult<Element> {
        let wait = BlockingWait()
        let collector = BlockingCollector<Element>(max: max)
        let subscription = SingleAssignmentDisposable()
        let source = source
        let finished = wait.wait(timeout: timeout) {
            subscription.setDisposable(
                source.subscribe { event in
                    if collector.on(event, predicate: predicate) {
                        subscription.dispose()
                        wait.finish()
                    }
                })
        }
        if !finished {
            subscription.dispose()
            collector.fail(RxError.timeout)
        }
        return collector.result
    }
}

/// The elements and the end a blocking operator has seen, written from
/// whichever thread the events come on and read by the waiting thread.
final class BlockingCollector<Element>: @unchecked Sendable {
    // @unchecked Sendable: `state` is only touched under its lock; the
    // elements cross to the waiting thread as elements cross threads in Rx.
    private struct State: @unchecked Sendable {
        var elements: [Element] = []
        var error: Error?
        var done = false
    }

    private let state = Mutex(State())
    private let max: Int?

    init(max: Int?) {
        self.max = max
    }

    /// Records `event`; `true` when the operator has what it needs.
    func on(_ event: Event<Element>, predicate: (Element) throws -> Bool) -> Bool {
        // The predicate runs outside the lock; Rx delivers one event at a time.
        var accepted: Element?
        var failure: Error?
        if case .next(let element) = event {
            do {
                if try predicate(element) { accepted = element }
            } catch {
                failure = error
            }
            if accepted == nil && failure == nil { return false }
        }
        nonisolated(unsafe) let sent = (accepted, failure, event)
        return state.withLock { state in
            guard !state.done else { return false }
            let (accepted, failure, event) = sent
            if let failure {
                state.error = failure
                state.done = true
            } else if let accepted {
                state.elements.append(accepted)
                if let max, state.elements.count >= max { state.done = true }
            } else if case .error(let error) = event {
                state.error = error
                state.done = true
            } else {
                state.done = true
            }
            return state.done
        }
    }

    /// Ends with `error` unless the sequence already ended.
    func fail(_ error: Error) {
        state.withLock { state in
            guard !state.done else { return }
            state.error = error
            state.done = true
        }
    }

    /// The result so far.
    var result: MaterializedSequenceResult<Element> {
        let (elements, error) = state.withLock { state in
            nonisolated(unsafe) let snapshot = (state.elements, state.error)
            return snapshot
        }
        if let error { return .failed(elements: elements, error: error) }
        return .completed(elements: elements)
    }
}
