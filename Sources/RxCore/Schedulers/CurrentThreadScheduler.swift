#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The per-thread trampoline: whether a trampoline is running on this thread,
/// and the actions queued behind the one that runs; and, beside it, the
/// thread's spare `SinkDisposer` (see `SinkDisposer.make()`).
final class Trampoline {
    var isRunning = false
    // Only its own thread touches a trampoline.
    @exclusivity(unchecked) var queue = RingQueue<InvocableType>()
    /// Owned (+1) by the trampoline; moved in and out without reference
    /// counting.
    @exclusivity(unchecked) var spareDisposer: Unmanaged<SinkDisposer>?

    deinit {
        if let spareDisposer {
            #if TRACE_RESOURCES
            // The spare goes with its thread: it was uncounted when it
            // became the spare, and its deinit counts it off again.
            _ = Resources.incrementTotal()
            #endif
            spareDisposer.release()
        }
    }
}

#if canImport(Darwin)
private func releaseTrampoline(_ pointer: UnsafeMutableRawPointer) {
    Unmanaged<Trampoline>.fromOpaque(pointer).release()
}
#else
private func releaseTrampoline(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<Trampoline>.fromOpaque(pointer).release()
}
#endif

/// One pthread key for the whole process; the value is the thread's trampoline.
private let trampolineKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, releaseTrampoline)
    precondition(status == 0, "CurrentThreadScheduler: pthread_key_create failed (\(status))")
    return key
}()

/// Runs `body` with the calling thread's trampoline (created on first
/// use), borrowed: the thread's key keeps it alive until the thread ends and
/// only its own thread touches it, so it is not retained and released
/// around every subscription.
@inline(__always)
func withCurrentTrampoline<Result>(_ body: (Trampoline) throws -> Result) rethrows -> Result {
    let reference: Unmanaged<Trampoline>
    if let pointer = pthread_getspecific(trampolineKey) {
        reference = Unmanaged.fromOpaque(pointer)
    } else {
        reference = Unmanaged.passRetained(Trampoline())
        pthread_setspecific(trampolineKey, reference.toOpaque())
    }
    return try reference._withUnsafeGuaranteedRef(body)
}

/// Runs work on the current thread, queueing work that is scheduled while
/// other work is running (a trampoline).
///
/// The first `schedule` on a thread runs its action at once and then drains
/// every action queued meanwhile, in order; nested calls only enqueue. So
/// recursive scheduling (100,000 steps of `Observable.range`, say) runs in a
/// loop instead of growing the stack. `Producer`-based observables subscribe
/// through it, which gives RxSwift's ordering for synchronous sources.
public final class CurrentThreadScheduler: ImmediateSchedulerType {
    /// The shared instance.
    public static let instance = CurrentThreadScheduler()

    private init() {}

    /// `true` when no trampoline is running on the calling thread, so a
    /// `schedule` call would run its action at once.
    public static var isScheduleRequired: Bool {
        withCurrentTrampoline { !$0.isRunning }
    }

    /// Tells a loop on the calling thread whether actions wait in the
    /// thread's trampoline queue. Synchronous sources ask after every step,
    /// to keep emitting in a loop while no other work is queued, which gives
    /// the same order as scheduling each step.
    ///
    /// The thread's trampoline is looked up once, here (a thread-local lookup
    /// per step was a noticeable part of a synchronous source's per-element
    /// cost); each question is then a plain field load. Use the probe on the
    /// thread that created it, while its loop runs.
    static var queuedActionsProbe: QueuedActionsProbe {
        guard let pointer = pthread_getspecific(trampolineKey) else { return QueuedActionsProbe(trampoline: nil) }
        return QueuedActionsProbe(trampoline: Unmanaged<Trampoline>.fromOpaque(pointer).takeUnretainedValue())
    }

    /// Runs `action` now if no trampoline runs on this thread (then drains the
    /// queue), otherwise enqueues it to run after the current action.
    ///
    /// - Returns: a disposable that cancels a queued action, or disposes what
    ///   the action returned.
    public func schedule<StateType>(_ state: StateType, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        withCurrentTrampoline { trampoline in
            if trampoline.isRunning {
                let item = ScheduledItem(action: action, state: state)
                trampoline.queue.enqueue(item)
                return item
            }
            return Self.runTrampoline(trampoline) { action(state) }
        }
    }

    /// Subscribes through the trampoline: runs `subscribe` at once, and, if no
    /// trampoline was running on this thread, makes it the trampoline's first
    /// action and drains the queue after it, exactly as
    /// `schedule(_:action:)` would. Producers subscribe this way.
    ///
    /// It exists for speed: `subscribe` is non-escaping, so subscribing
    /// allocates no closure context (a generic closure passed to `schedule`
    /// must capture its generic environment in a heap box), and the thread's
    /// trampoline is looked up once instead of twice.
    static func subscribe(_ subscribe: () -> Disposable) -> Disposable {
        withCurrentTrampoline { trampoline in
            if trampoline.isRunning {
                return subscribe()
            }
            return runTrampoline(trampoline, subscribe)
        }
    }

    /// Runs `body` with a trampoline of its own on this thread: work that
    /// `body` schedules runs (and is drained) before `body` returns, even
    /// when `body` is called from inside an action of the thread's
    /// trampoline, whose queued actions wait untouched until it returns.
    ///
    /// RxBlocking subscribes this way, so that waiting for a chain that
    /// schedules on `CurrentThreadScheduler` cannot deadlock: the work the
    /// waiting thread owes the chain is done before it waits.
    package static func withOwnTrampoline<Result>(_ body: () throws -> Result) rethrows -> Result {
        try withCurrentTrampoline { trampoline in
            let wasRunning = trampoline.isRunning
            var queued = RingQueue<InvocableType>()
            swap(&queued, &trampoline.queue)
            trampoline.isRunning = false
            defer {
                trampoline.isRunning = wasRunning
                swap(&queued, &trampoline.queue)
            }
            return try body()
        }
    }

    /// Runs `first` as the trampoline's first action, then every action queued
    /// meanwhile, in order.
    private static func runTrampoline(_ trampoline: Trampoline, _ first: () -> Disposable) -> Disposable {
        trampoline.isRunning = true
        defer { trampoline.isRunning = false }
        let disposable = first()
        // Tested first: most subscriptions queue nothing, and a `nil` from
        // `dequeue` is an optional existential to destroy.
        if trampoline.queue.isEmpty {
            return disposable
        }
        while let next = trampoline.queue.dequeue() {
            if !next.isDisposed {
                next.invoke()
            }
        }
        return disposable
    }
}

/// Whether actions wait in one thread's trampoline queue: see
/// `CurrentThreadScheduler.queuedActionsProbe`.
struct QueuedActionsProbe {
    fileprivate let trampoline: Trampoline?

    /// `true` when actions wait in the thread's trampoline queue.
    var hasQueuedActions: Bool {
        guard let trampoline else { return false }
        return !trampoline.queue.isEmpty
    }
}
