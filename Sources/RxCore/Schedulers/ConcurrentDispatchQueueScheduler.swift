import Dispatch

/// A scheduler that runs work on a `DispatchQueue` that may be concurrent:
/// scheduled actions may run in parallel with each other.
///
/// `now` reads a monotonic clock (`DispatchTime`). Delayed and periodic work
/// use `DispatchSourceTimer`s; disposing cancels them. Operators that need
/// ordered delivery (`observe(on:)`) serialise their own work, so this
/// scheduler is safe to use with them.
public final class ConcurrentDispatchQueueScheduler: SchedulerType {
    let configuration: DispatchQueueConfiguration

    /// The current time of the monotonic clock.
    public var now: RxTime {
        configuration.now
    }

    /// Creates a scheduler that runs work on `queue`.
    ///
    /// - Parameters:
    ///   - queue: the queue, serial or concurrent.
    ///   - leeway: how late the system may run delayed work, for timer coalescing.
    public init(queue: DispatchQueue, leeway: RxTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueConfiguration(queue: queue, leeway: leeway)
    }

    /// Creates a scheduler on a new concurrent queue of quality of service `qos`.
    ///
    /// - Parameters:
    ///   - qos: the quality of service of the new queue.
    ///   - leeway: how late the system may run delayed work, for timer coalescing.
    public convenience init(qos: DispatchQoS, leeway: RxTimeInterval = .nanoseconds(0)) {
        self.init(queue: DispatchQueue(label: "rxswift.queue.\(qos.qosClass)", qos: qos, attributes: .concurrent), leeway: leeway)
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
}
