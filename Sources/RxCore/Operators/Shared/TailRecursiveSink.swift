import Synchronization

/// A sink that subscribes to a sequence of sources one after another:
/// `concat`, `catch` over a sequence, `retry`, `retry(when:)`.
///
/// The conforming sink calls `scheduleMoveNext()` when the current source is
/// finished with; the shared machinery then takes the next source from
/// `tail` and hands it to `subscribe(toNext:)`, or calls `done()` when none
/// is left. Moving to the next source goes through a gate: a move requested
/// while another one is running (a source that completes synchronously
/// while it is being subscribed, or a source finishing on another thread) is
/// counted and run by the thread already moving, in a loop. So 10,000
/// sources that complete synchronously run in constant stack depth, and two
/// sources are never subscribed concurrently.
protocol TailRecursiveSink: AnyObject {
    /// The element type of the sources.
    associatedtype SourceElement

    /// The per-subscription state: the sources left and the current subscription.
    var tail: TailRecursion<SourceElement> { get }

    /// `true` once the sink is disposed; no source is subscribed after that.
    var isDisposed: Bool { get }

    /// Subscribes the sink to `source`; returns what ends that subscription.
    func subscribe(toNext source: Observable<SourceElement>) -> Disposable

    /// Called when no source is left.
    func done()

    /// The sources of `source` when it is an operator of the same kind whose
    /// sources can be iterated in place (flattening `a.concat(b).concat(c)`),
    /// otherwise `nil`.
    func extract(_ source: Observable<SourceElement>) -> TailRecursion<SourceElement>.Sources?
}

extension TailRecursiveSink {
    func extract(_ source: Observable<SourceElement>) -> TailRecursion<SourceElement>.Sources? {
        nil
    }

    /// Subscribes the next source, or calls `done()` when there is none. If a
    /// move is already running (on any thread), it is queued behind it.
    func scheduleMoveNext() {
        guard tail.enterMove() else { return }
        repeat {
            moveNextNow()
        } while tail.leaveMove()
    }

    /// Runs one move; only the thread that holds the gate calls it.
    private func moveNextNow() {
        if isDisposed {
            tail.removeSources()
            return
        }
        guard let next = tail.nextSource(extract: extract) else {
            done()
            return
        }
        let subscription = SingleAssignmentDisposable()
        // Disposes the previous source's subscription before the next one starts.
        tail.subscription.disposable = subscription
        subscription.setDisposable(subscribe(toNext: next))
    }
}

/// The sources left to a `TailRecursiveSink`, its current subscription and
/// the gate that serialises moves. Disposing it ends the current subscription.
// @unchecked Sendable: `stack` is touched only by the thread that holds the
// gate (see `stack`); everything else is under `gate`'s lock.
final class TailRecursion<Element>: Disposable, @unchecked Sendable {
    /// An iterator over sources and, if known, how many it has left.
    struct Sources {
        var iterator: AnyIterator<Observable<Element>>
        var remaining: Int?
    }

    private struct Gate {
        var isMoving = false
        var pendingMoves = 0
    }

    /// The subscription to the current source.
    let subscription = SerialDisposable()
    private let gate = Mutex(Gate())
    // Touched only by the thread that holds the gate (the Mutex round trips
    // of `enterMove`/`leaveMove` order the accesses between threads).
    private var stack: [Sources]

    init(_ sources: Sources) {
        stack = [sources]
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// Registers a move; `true` when the caller must run it (and then loop
    /// while `leaveMove()` returns `true`).
    func enterMove() -> Bool {
        gate.withLock { gate in
            gate.pendingMoves += 1
            if gate.isMoving { return false }
            gate.isMoving = true
            return true
        }
    }

    /// Finishes one move; `true` when another one was requested meanwhile.
    func leaveMove() -> Bool {
        gate.withLock { gate in
            gate.pendingMoves -= 1
            if gate.pendingMoves > 0 { return true }
            gate.isMoving = false
            return false
        }
    }

    /// The next source, flattening nested sequences through `extract`; `nil`
    /// when every sequence is exhausted.
    func nextSource(extract: (Observable<Element>) -> Sources?) -> Observable<Element>? {
        while var top = stack.popLast() {
            guard let candidate = top.iterator.next() else { continue }
            if let remaining = top.remaining {
                // Drop an iterator as soon as its last source is taken, so a
                // right-nested chain does not grow the stack.
                if remaining > 1 {
                    top.remaining = remaining - 1
                    stack.append(top)
                }
            } else {
                stack.append(top)
            }
            if let nested = extract(candidate) {
                stack.append(nested)
                #if TRACE_RESOURCES
                Resources.tailRecursionStack(reached: stack.count)
                #endif
                continue
            }
            return candidate
        }
        return nil
    }

    /// Drops the sources left (after dispose).
    func removeSources() {
        stack.removeAll()
    }

    /// Ends the current subscription and every later one.
    func dispose() {
        subscription.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

/// The sources a producer of a `TailRecursiveSink` holds: each subscription
/// iterates them afresh.
struct SourceSequence<Element> {
    private let makeIterator: () -> AnyIterator<Observable<Element>>
    private let count: Int?

    /// - Parameter count: the number of sources, when known (a collection).
    init<Sources: Swift.Sequence>(_ sources: Sources, count: Int?) where Sources.Element == Observable<Element> {
        makeIterator = { AnyIterator(sources.makeIterator()) }
        self.count = count
    }

    /// A fresh iterator over the sources.
    func makeSources() -> TailRecursion<Element>.Sources {
        TailRecursion.Sources(iterator: makeIterator(), remaining: count)
    }
}
