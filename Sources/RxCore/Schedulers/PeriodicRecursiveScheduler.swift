import Synchronization

/// Periodic scheduling built from relative scheduling: each tick schedules the
/// next one, then runs the action unless a previous run is still going, in
/// which case the pending run follows it immediately.
///
/// `@unchecked Sendable`: `state` is read and written only by the run that
/// `pendingTicks` (atomic) admits, one at a time.
final class PeriodicRecursiveScheduler<Scheduler: SchedulerType, State>: @unchecked Sendable {
    private enum Command {
        case tick
        case dispatchStart
    }

    private let scheduler: Scheduler
    private let startAfter: RxTimeInterval
    private let period: RxTimeInterval
    private let action: @Sendable (State) -> State
    private var state: State
    private let pendingTicks = Atomic<Int>(0)

    init(scheduler: Scheduler, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping @Sendable (State) -> State, state: State) {
        self.scheduler = scheduler
        self.startAfter = startAfter
        self.period = period
        self.action = action
        self.state = state
    }

    func start() -> Disposable {
        scheduler.scheduleRecursive(Command.tick, dueTime: startAfter) { command, recurse in
            self.tick(command, recurse)
        }
    }

    private func tick(_ command: Command, _ recurse: AnyRecursiveScheduler<Command>) {
        switch command {
        case .tick:
            recurse.schedule(.tick, dueTime: period)
            if pendingTicks.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
                tick(.dispatchStart, recurse)
            }
        case .dispatchStart:
            state = action(state)
            if pendingTicks.wrappingSubtract(1, ordering: .acquiringAndReleasing).oldValue > 1 {
                recurse.schedule(.dispatchStart, dueTime: .nanoseconds(0))
            }
        }
    }
}
