import Dispatch
import Synchronization

/// A scheduler that runs work on a serial `DispatchQueue`.
///
/// Work runs one item at a time, in the order it was scheduled (delayed work
/// in the order its timers fire). `observe(on:)` with this scheduler delivers
/// each event by one `async` on the queue. `now` reads a monotonic clock
/// (`DispatchTime`), so it never jumps with wall-clock changes. Delayed and
/// periodic work use `DispatchSourceTimer`s; disposing cancels them.
///
/// This file and `ConcurrentDispatchQueueScheduler.swift` are the only parts
/// of RxCore that import Dispatch.
public final class SerialDispatchQueueScheduler: SchedulerType {
    let configuration: DispatchQueueConfiguration

    /// The current time of the monotonic clock.
    public var now: RxTime {
        configuration.now
    }

    /// Uses `serialQueue` as it is; the caller guarantees that it is serial.
    init(serialQueue: DispatchQueue, leeway: RxTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueConfiguration(queue: serialQueue, leeway: leeway)
    }

    /// Creates a scheduler on a new serial queue named `internalSerialQueueName`.
    ///
    /// - Parameters:
    ///   - internalSerialQueueName: the label of the new queue.
    ///   - serialQueueConfiguration: called with the new queue before it is used
    ///     (to set queue-specific values, for instance).
    ///   - leeway: how late the system may run delayed work, for timer coalescing.
    public convenience init(internalSerialQueueName: String, serialQueueConfiguration: ((DispatchQueue) -> Void)? = nil, leeway: RxTimeInterval = .nanoseconds(0)) {
        let queue = DispatchQueue(label: internalSerialQueueName)
        serialQueueConfiguration?(queue)
        self.init(serialQueue: queue, leeway: leeway)
    }

    /// Creates a scheduler on a new serial queue that targets `queue`, so
    /// work runs serially even when `queue` is concurrent.
    ///
    /// - Parameters:
    ///   - queue: the target queue.
    ///   - internalSerialQueueName: the label of the new serial queue.
    ///   - leeway: how late the system may run delayed work, for timer coalescing.
    public convenience init(queue: DispatchQueue, internalSerialQueueName: String, leeway: RxTimeInterval = .nanoseconds(0)) {
        let serialQueue = DispatchQueue(label: internalSerialQueueName, target: queue)
        self.init(serialQueue: serialQueue, leeway: leeway)
    }

    /// Creates a scheduler on a new serial queue that targets the global
    /// queue of quality of service `qos`.
    ///
    /// - Parameters:
    ///   - qos: the quality of service of the target global queue.
    ///   - internalSerialQueueName: the label of the new serial queue.
    ///   - leeway: how late the system may run delayed work, for timer coalescing.
    public convenience init(qos: DispatchQoS, internalSerialQueueName: String = "rx.global_dispatch_queue.serial", leeway: RxTimeInterval = .nanoseconds(0)) {
        self.init(queue: DispatchQueue.global(qos: qos.qosClass), internalSerialQueueName: internalSerialQueueName, leeway: leeway)
    }

    /// Runs `action(state)` asynchronously on the queue.
    ///
    /// - Returns: a disposable that cancels the action if it has not started,
    ///   and otherwise disposes what it returned.
    public func schedule<StateType>(_ state: StateType, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        configuration.schedule(state, action: action)
    }

    /// Runs `action(state)` on the queue after `dueTime`.
    ///
    /// - Returns: a disposable that cancels the timer, or disposes what the
    ///   action returned.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        configuration.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Runs `action` on the queue after `startAfter` and then every `period`,
    /// passing each run's result to the next.
    ///
    /// - Returns: a disposable that cancels the timer.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping @Sendable (StateType) -> StateType) -> Disposable {
        configuration.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }

    /// Runs `work` asynchronously on the queue, with no cancellation (used by
    /// `observe(on:)`, which checks for disposal itself).
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        configuration.enqueue(work)
    }
}

/// The queue and timer leeway shared by the Dispatch schedulers, and their
/// scheduling logic.
struct DispatchQueueConfiguration {
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval
    /// Work for the main queue goes through `MainQueue` (which RxBlocking
    /// also drains while it waits on the main thread); its timers wait on a
    /// queue of their own and hand their work over the same way.
    private let mainQueue: Bool
    private let timerQueue: DispatchQueue

    init(queue: DispatchQueue, leeway: RxTimeInterval) {
        self.queue = queue
        self.leeway = Self.dispatchInterval(leeway)
        self.mainQueue = MainQueue.isMainQueue(queue)
        self.timerQueue = mainQueue ? DispatchQueue(label: "rx.main-queue.timers") : queue
    }

    /// Runs `work` on the queue: `queue.async`, or `MainQueue` for the main queue.
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        if mainQueue {
            MainQueue.enqueue(work)
        } else {
            queue.async(execute: work)
        }
    }

    /// Runs a timer's `work`, already on `timerQueue`, on the queue.
    private func fromTimer(_ work: @escaping @Sendable () -> Void) {
        if mainQueue {
            MainQueue.enqueue(work)
        } else {
            work()
        }
    }

    /// The monotonic clock, in nanoseconds since an unspecified origin.
    var now: RxTime {
        RxTime(nanoseconds: Int64(clamping: DispatchTime.now().uptimeNanoseconds))
    }

    /// `interval` as a `DispatchTimeInterval`; negative intervals become zero.
    static func dispatchInterval(_ interval: RxTimeInterval) -> DispatchTimeInterval {
        if case .never = interval { return .never }
        let nanoseconds = interval.nanoseconds
        if nanoseconds == Int64.max { return .never }
        return .nanoseconds(Int(Swift.max(0, nanoseconds)))
    }

    /// The deadline `interval` from now; `distantFuture` for `.never`.
    static func deadline(after interval: RxTimeInterval) -> DispatchTime {
        let nanoseconds = interval.nanoseconds
        if nanoseconds == Int64.max { return .distantFuture }
        let now = DispatchTime.now()
        if nanoseconds <= 0 { return now }
        let (deadline, overflow) = now.uptimeNanoseconds.addingReportingOverflow(UInt64(nanoseconds))
        if overflow { return .distantFuture }
        return DispatchTime(uptimeNanoseconds: deadline)
    }

    func schedule<StateType>(_ state: StateType, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        // The state goes to the action on the queue: the scheduler contract.
        let state = UncheckedSendable(state)
        enqueue {
            if cancel.isDisposed { return }
            cancel.setDisposable(action(state.value))
        }
        return cancel
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        if dueTime.nanoseconds == Int64.max {
            // A timer that never fires: nothing to run, nothing to cancel.
            return Disposables.create()
        }
        let group = CompositeDisposable()
        let timer = DispatchSource.makeTimerSource(queue: timerQueue)
        timer.schedule(deadline: Self.deadline(after: dueTime), leeway: leeway)
        let cancelTimer = DispatchTimerDisposable(timer)
        // The state goes to the action on the queue: the scheduler contract.
        let state = UncheckedSendable(state)
        timer.setEventHandler { [self] in
            fromTimer {
                if group.isDisposed { return }
                _ = group.insert(action(state.value))
                cancelTimer.dispose()
            }
        }
        _ = group.insert(cancelTimer)
        timer.resume()
        return group
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping @Sendable (StateType) -> StateType) -> Disposable {
        let timer = DispatchSource.makeTimerSource(queue: timerQueue)
        timer.schedule(deadline: Self.deadline(after: startAfter), repeating: Self.dispatchInterval(period), leeway: leeway)
        let cancelTimer = DispatchTimerDisposable(timer)
        // The handler runs on the queue, one run at a time per timer (the
        // main queue's runs are in order on the main thread).
        let timerState = PeriodicTimerState(state)
        timer.setEventHandler { [self] in
            fromTimer {
                if cancelTimer.isDisposed { return }
                timerState.value = action(timerState.value)
            }
        }
        timer.resume()
        return cancelTimer
    }
}

/// Cancels a `DispatchSourceTimer` once and drops it, which breaks the
/// cycle between the timer and its event handler.
final class DispatchTimerDisposable: Cancelable {
    // A Dispatch source is thread-safe, but its protocol is not marked Sendable.
    private let timer: Mutex<UncheckedSendable<DispatchSourceTimer>?>

    init(_ timer: DispatchSourceTimer) {
        self.timer = Mutex(UncheckedSendable(timer))
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    var isDisposed: Bool {
        timer.withLock { $0 == nil }
    }

    func dispose() {
        let timer = self.timer.withLock { timer -> UncheckedSendable<DispatchSourceTimer>? in
            defer { timer = nil }
            return timer
        }
        guard let timer else { return }
        timer.value.cancel()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

/// The state threaded through the runs of a periodic timer; only the timer's
/// handler touches it, and the handler never runs concurrently with itself.
///
/// `@unchecked Sendable`: `value` is read and written only by the timer's
/// event handler, which Dispatch runs one at a time on the scheduler's queue.
private final class PeriodicTimerState<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
