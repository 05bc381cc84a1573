import Synchronization

/// The engine behind `scheduleRecursive`: keeps the pending steps of one
/// recursive action in a group, so that disposing cancels all of them, and
/// drops each step from the group once it has run.
final class RecursiveScheduler<State>: Disposable {
    typealias Action = @Sendable (State, RecursiveScheduler<State>) -> Void
    typealias ScheduleStep = @Sendable (State, @escaping @Sendable (State) -> Void) -> Disposable

    private struct Locked {
        var action: Action?
        var scheduleStep: ScheduleStep?
    }

    private let locked: Mutex<Locked>
    private let group = CompositeDisposable()

    init(action: @escaping Action, schedule: @escaping ScheduleStep) {
        locked = Mutex(Locked(action: action, scheduleStep: schedule))
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// Schedules one step with `state`.
    func schedule(_ state: State) {
        guard let scheduleStep = locked.withLock({ $0.scheduleStep }) else { return }
        let step = Step()
        // The step holds the scheduler strongly; the cycle through `group`
        // ends when the step runs or when the scheduler is disposed.
        let disposable = scheduleStep(state) { state in
            if let key = step.finish() {
                self.group.remove(for: key)
            }
            guard let action = self.locked.withLock({ $0.action }) else { return }
            action(state, self)
        }
        if let key = group.insert(disposable) {
            if !step.register(key) {
                group.remove(for: key)
            }
        }
    }

    func dispose() {
        locked.withLock { locked in
            locked.action = nil
            locked.scheduleStep = nil
        }
        group.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }

    /// Tracks one step: whether it already ran, and its key in the group.
    private final class Step: Sendable {
        private let state = Mutex<(done: Bool, key: CompositeDisposable.DisposeKey?)>((false, nil))

        /// Called when the step runs; returns the key to drop, if registered.
        func finish() -> CompositeDisposable.DisposeKey? {
            state.withLock { state in
                state.done = true
                defer { state.key = nil }
                return state.key
            }
        }

        /// Records the key; returns `false` when the step already ran.
        func register(_ key: CompositeDisposable.DisposeKey) -> Bool {
            state.withLock { state in
                if state.done { return false }
                state.key = key
                return true
            }
        }
    }
}
