import Synchronization

/// The subscriptions of a merging sink (its outer sequence and every running
/// inner) and, for a `MergeSink`, its counts and its serialiser, under one
/// lock.
///
/// An inner costs three short critical sections and no allocation:
/// `reserve` counts it and gives it a key, `assign` stores the subscription
/// its `subscribe` returned under that key (in a `Bag`), and `complete`
/// takes it out and decides whether the merge completes. The inner being
/// subscribed is noted beside the bag, not in it: one that completes during
/// its own `subscribe` (a write the kernel takes at once, a `just`) is only
/// marked ended, and `assign` then disposes what it was given, so it never
/// touches the bag. An inner subscribed while another is still being
/// subscribed (re-entrantly) holds a place in the bag from the start.
///
/// The usual way, a `CompositeDisposable` of `SingleAssignmentDisposable`s,
/// allocates a disposable per inner and takes a lock for the counts, one
/// for the group and an atomic for the assignment, on every element of a
/// `flatMap`. A `MergeLimitedSink` (`concat`, `concatMap`) keeps its own
/// counts and queue and uses only the slots: `slot`, `assign` and `release`.
///
/// Disposing disposes the outer subscription, then every running inner in
/// the order they were subscribed; an inner assigned afterwards is disposed
/// at once.
///
/// `@unchecked Sendable`: every mutable field is under `state`'s lock.
final class MergeInners: Cancelable, @unchecked Sendable {
    // @unchecked Sendable: touched only under `state`'s lock (its boxed
    // deliveries and disposables included).
    private struct State: @unchecked Sendable {
        var counters = MergeCounters()
        /// The running inners' subscriptions, by key; a no-op for an
        /// inner subscribed re-entrantly and not yet assigned.
        var running = Bag<Disposable>()
        var isDisposed = false
        /// The key of the inner being subscribed, which is not in
        /// `running` until `assign`; `nil` when none is.
        var subscribing: BagKey?
        /// The inner under `subscribing` completed during its subscribe.
        var subscribingEnded = false
        /// The outer sequence's subscription, once `setSource` gave it.
        var source: Disposable = NopDisposable()
        /// The outer sequence ended (`endSource`) or the merge was disposed:
        /// a source subscription given after that is disposed at once.
        var isSourceEnded = false
        /// The `MergeSink`'s serialiser. Its items are the sink's boxed
        /// events (`MergeQueuedEvent`), made only for an event that must
        /// wait, so this state stays non-generic: the sink's subscription,
        /// its deliveries and its end look up no type metadata for it.
        var delivery = SerialDelivery<AnyObject>()

        /// A key for a new inner: noted as the one being subscribed, or,
        /// when one already is, given a no-op place in `running`.
        mutating func place() -> BagKey {
            let key = running.makeKey()
            if subscribing == nil {
                subscribing = key
                subscribingEnded = false
            } else {
                running.insert(NopDisposable(), for: key)
            }
            return key
        }
    }

    private let state = Mutex(State())

    init() {
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// `true` once disposed.
    var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// Takes the emitter role of the merge's deliveries when nobody holds
    /// it and nothing stopped them (`SerialDelivery.claim()`).
    func claimDelivery() -> Bool {
        state.withLock { $0.delivery.claim() }
    }

    /// Releases the emitter role when nothing was queued meanwhile
    /// (`SerialDelivery.releaseIfIdle()`).
    func releaseDeliveryIfIdle() -> Bool {
        state.withLock { $0.delivery.releaseIfIdle() }
    }

    /// Takes the emitter role for the merge's last delivery, its
    /// completion, and stops the deliveries; `false` when another delivery
    /// is under way or they stopped.
    func claimLastDelivery() -> Bool {
        state.withLock { state -> Bool in
            guard state.delivery.claim() else { return false }
            state.delivery.stop()
            return true
        }
    }

    /// Hands `item` to the deliveries (`SerialDelivery.begin(_:)`): returns
    /// it when the caller became the emitter. A terminal item stops them.
    func beginDelivery(_ item: AnyObject, isTerminal: Bool) -> AnyObject? {
        // `locked`: the items are the sink's own boxes, not `Sendable`;
        // only this lock's holder touches them.
        state.locked { state -> AnyObject? in
            let first = state.delivery.begin(item)
            if isTerminal {
                state.delivery.stop()
            }
            return first
        }
    }

    /// The next queued delivery, or `nil`, which releases the emitter role
    /// (`SerialDelivery.next()`).
    func nextDelivery() -> AnyObject? {
        state.locked { $0.delivery.next() }
    }

    /// Keeps the outer sequence's subscription; disposes it at once when
    /// the outer sequence already ended (during its own subscribe) or the
    /// merge was disposed. Called once.
    func setSource(_ subscription: Disposable) {
        var refused = subscription
        state.withLock { state in
            guard !state.isSourceEnded else { return }
            swap(&refused, &state.source)
        }
        refused.dispose()
    }

    /// The outer sequence ended: disposes its subscription (at once if it
    /// was given, else when `setSource` gives it).
    func endSource() {
        takeSource().dispose()
    }

    /// Marks the source ended and moves its subscription out.
    private func takeSource() -> Disposable {
        var taken: Disposable = NopDisposable()
        state.withLock { state in
            state.isSourceEnded = true
            swap(&taken, &state.source)
        }
        return taken
    }

    /// Counts a new inner and gives it a slot. `nil` when no inner may
    /// start: disposed, a terminal event decided, or (`firstOnly`, for
    /// `flatMapFirst`) an inner still running.
    func reserve(firstOnly: Bool) -> BagKey? {
        state.withLock { state -> BagKey? in
            if state.isDisposed || state.counters.isStopped || (firstOnly && state.counters.activeCount > 0) {
                return nil
            }
            state.counters.activeCount += 1
            return state.place()
        }
    }

    /// Counts `count` inners known up front (`Observable.merge` of a list),
    /// each to be given its slot by `slot()`.
    func expect(_ count: Int) {
        state.withLock { $0.counters.activeCount = count }
    }

    /// A slot for an inner already counted (by `expect(_:)`, or by a sink
    /// that keeps its own counts); `nil` once disposed.
    func slot() -> BagKey? {
        state.withLock { state -> BagKey? in
            state.isDisposed ? nil : state.place()
        }
    }

    /// Stores the subscription of the inner in slot `key`; disposes it at
    /// once when the inner has already completed or the merge was disposed.
    func assign(_ subscription: Disposable, to key: BagKey) {
        let stored = state.withLock { state -> Bool in
            guard state.subscribing == key else {
                return state.running.replace(key, with: subscription)
            }
            state.subscribing = nil
            if state.subscribingEnded || state.isDisposed {
                return false
            }
            state.running.insert(subscription, for: key)
            return true
        }
        if !stored {
            subscription.dispose()
        }
    }

    /// The inner in slot `key` completed: empties its slot and disposes its
    /// subscription. Returns `true` when the merge completes now (the outer
    /// sequence is done and no inner is left).
    func complete(_ key: BagKey) -> Bool {
        empty(key, counting: true)
    }

    /// The inner in slot `key` completed: empties its slot and disposes its
    /// subscription, counting nothing (for a sink that keeps its own counts).
    func release(_ key: BagKey) {
        _ = empty(key, counting: false)
    }

    /// Empties slot `key` and disposes what it held; with `counting`, counts
    /// the inner off and returns whether the merge completes now.
    @inline(__always)
    private func empty(_ key: BagKey, counting: Bool) -> Bool {
        // Moved out into a non-optional: no `Optional` copies of the
        // existential inside and out of the lock.
        var removed: Disposable = NopDisposable()
        let finished = state.withLock { state -> Bool in
            if state.subscribing == key {
                // Its subscription is not known yet: `assign` disposes it.
                state.subscribingEnded = true
            } else {
                state.running.removeKey(key, into: &removed)
            }
            guard counting else { return false }
            state.counters.activeCount -= 1
            return state.counters.stopIfFinished()
        }
        removed.dispose()
        return finished
    }

    /// The outer sequence completed (or, for a list, every source was
    /// subscribed). Returns `true` when the merge completes now.
    func finishSource() -> Bool {
        state.withLock { state -> Bool in
            state.counters.isSourceDone = true
            return state.counters.stopIfFinished()
        }
    }

    /// A terminal event was decided: no more inners start.
    func stop() {
        state.withLock { $0.counters.isStopped = true }
    }

    /// Disposes the outer subscription, then every running inner in
    /// subscription order; later calls do nothing. An inner still being
    /// subscribed is disposed when its subscription is assigned.
    func dispose() {
        let running = state.withLock { state -> Bag<Disposable>? in
            if state.isDisposed { return nil }
            state.isDisposed = true
            var running = Bag<Disposable>()
            swap(&running, &state.running)
            return running
        }
        guard let running else { return }
        takeSource().dispose()
        running.forEach { $0.dispose() }
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
