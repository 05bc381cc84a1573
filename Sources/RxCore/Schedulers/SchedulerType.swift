/// A scheduler that can also run work after a delay and periodically.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's current time.
    var now: RxTime { get }

    /// Schedules `action(state)` to run after `dueTime`.
    ///
    /// - Returns: a disposable that cancels the action if it has not run yet.
    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable

    /// Runs `action` first after `startAfter`, then every `period`, threading
    /// the state from one run to the next.
    ///
    /// - Returns: a disposable that stops the periodic work.
    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping @Sendable (StateType) -> StateType) -> Disposable
}

extension SchedulerType {
    /// The default periodic scheduling: recursive relative scheduling, one
    /// step per period. A tick that arrives while the previous action is still
    /// running is queued and run right after it.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping @Sendable (StateType) -> StateType) -> Disposable {
        let periodic = PeriodicRecursiveScheduler(scheduler: self, startAfter: startAfter, period: period, action: action, state: state)
        return periodic.start()
    }

    /// Schedules `action` recursively with a delay: `action` receives a
    /// scheduler on which `schedule(state, dueTime:)` schedules the next step.
    ///
    /// - Returns: a disposable that cancels every pending step.
    public func scheduleRecursive<State>(_ state: State, dueTime: RxTimeInterval, action: @escaping @Sendable (_ state: State, _ scheduler: AnyRecursiveScheduler<State>) -> Void) -> Disposable {
        let recursive = RecursiveScheduler<(State, RxTimeInterval)>(
            action: { pair, recurse in
                action(pair.0, AnyRecursiveScheduler(recurse))
            },
            schedule: { pair, invoke in
                self.scheduleRelative(pair, dueTime: pair.1) { pair in
                    invoke(pair)
                    return Disposables.create()
                }
            })
        recursive.schedule((state, dueTime))
        return recursive
    }
}

/// The handle a recursive action uses to schedule its next step.
public struct AnyRecursiveScheduler<State> {
    private let recursive: RecursiveScheduler<(State, RxTimeInterval)>

    init(_ recursive: RecursiveScheduler<(State, RxTimeInterval)>) {
        self.recursive = recursive
    }

    /// Schedules the next step with `state`, after `dueTime`.
    public func schedule(_ state: State, dueTime: RxTimeInterval) {
        recursive.schedule((state, dueTime))
    }
}
